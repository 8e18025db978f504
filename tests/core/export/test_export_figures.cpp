// Exports carry the checked figures (issue #46 §2): each figure that stands where the checker
// found it is followed by its mark, and an appendix lists every figure with its state, the
// cited and the found page and the page's line: in Markdown, HTML and the PDF (read back).
#include <QFile>
#include <QPdfDocument>
#include <QtTest>

#include "core/chat/chat_session.h"
#include "core/export/export_chat.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

QString readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

CheckedFigure figure(const QString& text, const QString& figureText, CheckedFigure::State state,
                     int page, int foundPage, const QString& line) {
    CheckedFigure f;
    f.figure = figureText;
    f.offset = text.indexOf(figureText);
    f.length = figureText.size();
    f.state = state;
    f.document = 0;
    f.page = page;
    f.foundPage = foundPage;
    f.line = line;
    return f;
}

const QString kAnswer = QStringLiteral(
    "Revenue was 4,500 [p. 2]. The margin was 15.8% [p. 3]. Staff: 12,000 [p. 2]. Growth 7%.");

ChatSession checkedChat() {
    ChatSession c = ChatSession::create();
    c.documents = {{QStringLiteral("/data/report.pdf"), QStringLiteral("ab"),
                    QStringLiteral("Annual Report"), 8, false, QString()}};
    ChatMessage q;
    q.role = ChatMessage::Role::User;
    q.text = QStringLiteral("What were the results?");
    ChatMessage a;
    a.role = ChatMessage::Role::Assistant;
    a.text = kAnswer;
    using S = CheckedFigure::State;
    a.figures = {figure(kAnswer, QStringLiteral("4,500"), S::Verified, 2, 2,
                        QStringLiteral("Revenue 4,500 3,900")),
                 figure(kAnswer, QStringLiteral("15.8%"), S::OtherPage, 3, 5,
                        QStringLiteral("Operating   margin 15.8% | 14.1%")),
                 figure(kAnswer, QStringLiteral("12,000"), S::NotFound, 2, 0, QString()),
                 figure(kAnswer, QStringLiteral("7%"), S::Uncited, 0, 0, QString())};
    c.messages = {q, a};
    return c;
}

} // namespace

class TestExportFigures : public QObject {
    Q_OBJECT
    QString dir_;
private Q_SLOTS:
    void initTestCase() { dir_ = folio::test::scratchDir(QStringLiteral("export-figures")); }

    void markdownMarksEachFigureAndListsThemAll() {
        ExportContext ctx;
        ctx.title = QStringLiteral("Results");
        const QString path = dir_ + QStringLiteral("/note.md");
        QCOMPARE(exportChat(path, checkedChat(), ctx), QString());
        const QString md = readAll(path);
        const QString nb = QString(QChar(0x202F));
        QVERIFY2(md.contains(QStringLiteral("Revenue was 4,500") + nb + QStringLiteral("✓ [p. 2]")),
                 qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("15.8%") + nb + QStringLiteral("⚠ [p. 3]")));
        QVERIFY(md.contains(QStringLiteral("12,000") + nb + QStringLiteral("✗ [p. 2]")));
        QVERIFY(md.contains(QStringLiteral("Growth 7%") + nb + QStringLiteral("?.")));
        // The appendix follows the conversation: one row per figure, "|" in a line kept as text.
        const qsizetype appendix = md.indexOf(QStringLiteral("## Figures checked"));
        QVERIFY(appendix > md.indexOf(QStringLiteral("Growth 7%")));
        const QString table = md.mid(appendix);
        QVERIFY2(table.contains(QStringLiteral(
                     "| 1 | 4,500 | ✓ verified | p. 2 | p. 2 | Revenue 4,500 3,900 |\n")),
                 qPrintable(table));
        QVERIFY(table.contains(QStringLiteral("| 1 | 15.8% | ⚠ on another page | p. 3 | p. 5 | "
                                              "Operating margin 15.8% \\| 14.1% |\n")));
        QVERIFY(table.contains(QStringLiteral("| 1 | 12,000 | ✗ not found | p. 2 | — |  |\n")));
        QVERIFY(table.contains(QStringLiteral("| 1 | 7% | ? no citation | — | — |  |\n")));
        QCOMPARE(table.count(QStringLiteral("\n| 1 |")), 4);
    }

    void aFigureNoLongerWhereItWasKeepsNoMarkButStaysListed() {
        ChatSession chat = checkedChat();
        chat.messages[1].text = QStringLiteral("Revenue was about 4,500 [p. 2].");
        ExportContext ctx;
        ctx.title = QStringLiteral("Edited");
        const QString path = dir_ + QStringLiteral("/edited.md");
        QCOMPARE(exportChat(path, chat, ctx), QString());
        const QString md = readAll(path);
        QVERIFY2(md.contains(QStringLiteral("Revenue was about 4,500 [p. 2].")), qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("| 1 | 4,500 | ✓ verified |")));
    }

    void noFiguresNoAppendix() {
        ChatSession chat = checkedChat();
        chat.messages[1].figures.clear();
        ExportContext ctx;
        ctx.title = QStringLiteral("Plain");
        const QString path = dir_ + QStringLiteral("/plain.md");
        QCOMPARE(exportChat(path, chat, ctx), QString());
        QVERIFY(!readAll(path).contains(QStringLiteral("Figures checked")));
    }

    void htmlAndPdfCarryTheMarksAndTheTable() {
        ExportContext ctx;
        ctx.title = QStringLiteral("Results");
        const QString html = dir_ + QStringLiteral("/note.html");
        QCOMPARE(exportChat(html, checkedChat(), ctx), QString());
        const QString h = readAll(html);
        QVERIFY2(h.contains(QStringLiteral("<h2>Figures checked</h2>")), qPrintable(h));
        QVERIFY(h.contains(QStringLiteral("<td>⚠ on another page</td>")));
        QVERIFY(h.contains(QStringLiteral("<td>Operating margin 15.8% | 14.1%</td>")));
        QVERIFY(h.contains(QStringLiteral("✓")) && h.contains(QStringLiteral("✗")));

        const QString pdfPath = dir_ + QStringLiteral("/note.pdf");
        QCOMPARE(exportChat(pdfPath, checkedChat(), ctx), QString());
        QPdfDocument pdf;
        QCOMPARE(pdf.load(pdfPath), QPdfDocument::Error::None);
        QString text;
        for (int i = 0; i < pdf.pageCount(); ++i)
            text += pdf.getAllText(i).text() + QLatin1Char('\n');
        QVERIFY2(text.contains(QStringLiteral("Figures checked")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("on another page")));
        QVERIFY(text.contains(QStringLiteral("Operating margin 15.8%")));
        QVERIFY(text.contains(QStringLiteral("Revenue 4,500 3,900")));
    }
};

QTEST_MAIN(TestExportFigures)
#include "test_export_figures.moc"
