// Exports (issue #25): "Export chat…" writes the chat, "Export summary…" only the summary the
// summary job made; links to documents are relative to the export; times are readable; long
// code lines wrap in the PDF (read back with QtPdf).
#include <QAction>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPdfDocument>
#include <QPdfSelection>
#include <QRegularExpression>
#include <QtTest>

#include "chat/chat_pane.h"
#include "core/chat/chat_session.h"
#include "core/export/export_chat.h"
#include "main_window.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

QString readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString pdfText(const QString& path) {
    QPdfDocument pdf;
    if (pdf.load(path) != QPdfDocument::Error::None)
        return {};
    QString text;
    for (int i = 0; i < pdf.pageCount(); ++i)
        text += pdf.getAllText(i).text() + QLatin1Char('\n');
    return text;
}

ChatSession chatWithDocument(const QString& documentPath) {
    ChatSession c = ChatSession::create();
    c.documents = {
        {documentPath, QStringLiteral("ab"), QStringLiteral("Annual Report"), 8, false, QString()}};
    ChatMessage q;
    q.role = ChatMessage::Role::User;
    q.text = QStringLiteral("What was revenue?");
    q.time = QDateTime(QDate(2026, 3, 5), QTime(14, 7, 9));
    ChatMessage a;
    a.role = ChatMessage::Role::Assistant;
    a.text = QStringLiteral("Revenue was $4.5 bn [p. 2].");
    a.time = QDateTime(QDate(2026, 3, 5), QTime(14, 7, 30));
    c.messages = {q, a};
    return c;
}

} // namespace

class TestChatExport : public QObject {
    Q_OBJECT
    QString dir_;

private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("chat-export-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_chat_export"));
        dir_ = folio::test::scratchDir(QStringLiteral("chat-export"));
        QDir().mkpath(dir_ + QStringLiteral("/docs"));
        QDir().mkpath(dir_ + QStringLiteral("/out"));
    }

    // The HTML links to the chat's documents relative to where it is written; times read
    // "2026-03-05 14:07", not ISO stamps.
    void linksAreRelativeAndTimesReadable() {
        const ChatSession c = chatWithDocument(dir_ + QStringLiteral("/docs/Annual Report.pdf"));
        ExportContext ctx;
        ctx.title = QStringLiteral("Revenue");
        QCOMPARE(exportChat(dir_ + QStringLiteral("/out/chat.html"), c, ctx), QString());
        const QString html = readAll(dir_ + QStringLiteral("/out/chat.html"));
        QVERIFY2(html.contains(QStringLiteral("../docs/Annual%20Report.pdf#page=2")),
                 qPrintable(html));
        QVERIFY2(!html.contains(QStringLiteral("file://")), qPrintable(html));
        QVERIFY(html.contains(QStringLiteral("2026-03-05 14:07")));
        QVERIFY(!html.contains(QStringLiteral("2026-03-05T14")));
        QCOMPARE(exportChat(dir_ + QStringLiteral("/out/chat.md"), c, ctx), QString());
        const QString md = readAll(dir_ + QStringLiteral("/out/chat.md"));
        QVERIFY2(md.contains(QStringLiteral("## You (2026-03-05 14:07)")), qPrintable(md));
        QVERIFY(!md.contains(QStringLiteral("2026-03-05T14")));
    }

    // A code line far wider than the page wraps instead of running off it.
    void longCodeLinesWrapInThePdf() {
        ChatSession c = chatWithDocument(dir_ + QStringLiteral("/docs/r.pdf"));
        QString longLine = QStringLiteral("total = ");
        for (int i = 0; i < 40; ++i)
            longLine += QStringLiteral("rev%1+").arg(i, 2, 10, QLatin1Char('0'));
        longLine += QStringLiteral("LASTTERM");
        c.messages[1].text = QStringLiteral("The sum:\n\n```python\n%1\n```\n").arg(longLine);
        ExportContext ctx;
        ctx.title = QStringLiteral("Code");
        QCOMPARE(exportChat(dir_ + QStringLiteral("/out/code.pdf"), c, ctx), QString());
        const QString text = pdfText(dir_ + QStringLiteral("/out/code.pdf"));
        QVERIFY2(text.contains(QStringLiteral("LASTTERM")), qPrintable(text));
        // Laid out over several lines: the line is there once the breaks are taken out, and
        // not in one piece.
        QString joined = text;
        joined.remove(QRegularExpression(QStringLiteral("\\s")));
        QString wanted = longLine;
        wanted.remove(QLatin1Char(' '));
        QVERIFY2(joined.contains(wanted), qPrintable(text));
        QVERIFY2(!text.contains(longLine), qPrintable(text));
    }

    // The summary by itself, in each format.
    void aSummaryExportsAlone() {
        SummaryExport s;
        s.title = QStringLiteral("Summary: Annual Report");
        s.documentPath = dir_ + QStringLiteral("/docs/report.pdf");
        s.markdown = QStringLiteral("# Summary: Annual Report\n\nRevenue grew 12 %.\n\n## Parts\n\n"
                                    "- pages 1–8\n");
        s.created = QDateTime(QDate(2026, 3, 5), QTime(9, 30));
        QCOMPARE(exportSummary(dir_ + QStringLiteral("/out/s.md"), s), QString());
        QCOMPARE(readAll(dir_ + QStringLiteral("/out/s.md")), s.markdown);
        QCOMPARE(exportSummary(dir_ + QStringLiteral("/out/s.html"), s), QString());
        const QString html = readAll(dir_ + QStringLiteral("/out/s.html"));
        QVERIFY2(html.contains(QStringLiteral("href=\"../docs/report.pdf\"")), qPrintable(html));
        QVERIFY(html.contains(QStringLiteral("Revenue grew 12 %")));
        QVERIFY(html.contains(QStringLiteral("2026-03-05 09:30")));
        QCOMPARE(exportSummary(dir_ + QStringLiteral("/out/s.json"), s), QString());
        const QJsonObject json =
            QJsonDocument::fromJson(readAll(dir_ + QStringLiteral("/out/s.json")).toUtf8())
                .object();
        QCOMPARE(json.value(QStringLiteral("format")).toString(), QStringLiteral("folio-summary"));
        QCOMPARE(json.value(QStringLiteral("document")).toString(),
                 QStringLiteral("../docs/report.pdf"));
        QCOMPARE(json.value(QStringLiteral("markdown")).toString(), s.markdown);
        QCOMPARE(exportSummary(dir_ + QStringLiteral("/out/s.pdf"), s), QString());
        const QString text = pdfText(dir_ + QStringLiteral("/out/s.pdf"));
        QVERIFY2(text.contains(QStringLiteral("Revenue grew 12")), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("What was revenue?")));
    }

    // The File menu: "Export chat…" for the chat; "Export summary…" only once a summary of
    // this chat exists.
    void theMenuNamesBothExports() {
        MainWindow w;
        auto* chatAction = w.findChild<QAction*>(QStringLiteral("actionExport"));
        auto* summaryAction = w.findChild<QAction*>(QStringLiteral("actionExportSummary"));
        QVERIFY(chatAction && summaryAction);
        QCOMPARE(chatAction->text(), QStringLiteral("&Export chat…"));
        QCOMPARE(summaryAction->text(), QStringLiteral("Export s&ummary…"));
        QVERIFY(!summaryAction->isEnabled());
        QVERIFY(!w.hasSummaryToExport());
        QFuture<QString> none = w.exportSummaryTo(dir_ + QStringLiteral("/out/none.md"));
        none.waitForFinished();
        QVERIFY2(none.result().contains(QStringLiteral("Summarize document")),
                 qPrintable(none.result()));
        QVERIFY(!QFile::exists(dir_ + QStringLiteral("/out/none.md")));
    }
};

QTEST_MAIN(TestChatExport)
#include "test_chat_export.moc"
