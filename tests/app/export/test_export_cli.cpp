// `folio-cli export CHAT.json -o OUT` (issue #45 §1: export works headless, from the core
// library): a chat file written by hand in the chat store's format (version 3, two documents,
// a question and an answer with citations and text in angle brackets) exported as Markdown,
// HTML, PDF and JSON, each read back; bad input gets a message naming the file.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPdfDocument>
#include <QtTest>

#include "support/test_support.h"

namespace {

const char* const kChat = R"({
  "format": "folio-chat", "version": 3, "id": "c-export-1", "title": "Meridian revenue",
  "system_prompt": "", "created": "2026-12-01T10:00:00.000", "updated": "2026-12-01T10:05:00.000",
  "settings": {},
  "documents": [
    {"path": "/data/reports/meridian-2025.pdf", "fingerprint": "f1", "title": "Meridian 2025",
     "pages": 120, "is_image": false, "pinned_pages": ""},
    {"path": "/data/charts/revenue.png", "fingerprint": "f2", "title": "Revenue chart",
     "pages": 1, "is_image": true, "pinned_pages": ""}
  ],
  "messages": [
    {"role": "user", "text": "How did revenue change?", "time": "2026-12-01T10:00:00.000",
     "id": 1, "parent": 0},
    {"role": "assistant",
     "text": "Revenue rose 12.4 % to RMB 3.2 billion [p. 14]. The call R_init_<pkg> is named on [doc 1, p. 3].",
     "time": "2026-12-01T10:01:00.000", "id": 2, "parent": 1}
  ]
})";

QString writeChat(const QString& dir, const QByteArray& text) {
    const QString path = dir + QStringLiteral("/chat.json");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        return {};
    return path;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

folio::test::CliRun exportTo(const QString& chat, const QString& out) {
    return folio::test::runCli({QStringLiteral("export"), chat, QStringLiteral("-o"), out,
                                QStringLiteral("--model"), QStringLiteral("demo-model")},
                               60000);
}

} // namespace

class TestExportCli : public QObject {
    Q_OBJECT
    QString dir_, chat_;

private slots:
    void initTestCase() {
        dir_ = folio::test::scratchDir(QStringLiteral("export-cli"));
        chat_ = writeChat(dir_, kChat);
        QVERIFY(!chat_.isEmpty());
    }

    void markdown() {
        const QString out = dir_ + QStringLiteral("/chat.md");
        const auto r = exportTo(chat_, out);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString md = QString::fromUtf8(readAll(out));
        QVERIFY2(md.startsWith(QStringLiteral("# Meridian revenue")), qPrintable(md.left(200)));
        QVERIFY2(md.contains(QStringLiteral("Meridian 2025")), qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("How did revenue change?")));
        // The answer as written, brackets and citations included.
        QVERIFY2(md.contains(QStringLiteral("Revenue rose 12.4 % to RMB 3.2 billion [p. 14]. The "
                                            "call R_init_<pkg> is named on [doc 1, p. 3].")),
                 qPrintable(md));
    }

    void html() {
        const QString out = dir_ + QStringLiteral("/chat.html");
        const auto r = exportTo(chat_, out);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString html = QString::fromUtf8(readAll(out));
        QVERIFY2(html.contains(QStringLiteral("R_init_&lt;pkg&gt;")), qPrintable(html));
        QVERIFY(!html.contains(QStringLiteral("<pkg>")));
        // The citation links to its page of the chat's PDF, relative to the export's folder.
        QVERIFY2(html.contains(QStringLiteral("meridian-2025.pdf#page=14")), qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("meridian-2025.pdf#page=3")), qPrintable(html));
    }

    void pdf() {
        const QString out = dir_ + QStringLiteral("/chat.pdf");
        const auto r = exportTo(chat_, out);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(readAll(out).startsWith("%PDF-"));
        QPdfDocument doc;
        QCOMPARE(doc.load(out), QPdfDocument::Error::None);
        QVERIFY(doc.pageCount() >= 1);
        QString text;
        for (int p = 0; p < doc.pageCount(); ++p)
            text += doc.getAllText(p).text();
        text.replace(QLatin1Char('\n'), QLatin1Char(' '));
        QVERIFY2(text.contains(QStringLiteral("RMB 3.2 billion")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("R_init_<pkg>")), qPrintable(text));
    }

    void json() {
        const QString out = dir_ + QStringLiteral("/chat.json.out.json");
        const auto r = exportTo(chat_, out);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(readAll(out)).object();
        QCOMPARE(o.value(QStringLiteral("format")).toString(), QStringLiteral("folio-chat"));
        QCOMPARE(o.value(QStringLiteral("model")).toString(), QStringLiteral("demo-model"));
        const QJsonArray messages = o.value(QStringLiteral("messages")).toArray();
        QCOMPARE(messages.size(), 2);
        QVERIFY(messages[1]
                    .toObject()
                    .value(QStringLiteral("text"))
                    .toString()
                    .contains(QStringLiteral("R_init_<pkg>")));
        QCOMPARE(o.value(QStringLiteral("documents")).toArray().size(), 2);
    }

    void badInputIsNamed() {
        const QString out = dir_ + QStringLiteral("/never.md");
        const auto missing = exportTo(dir_ + QStringLiteral("/missing.json"), out);
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(QStringLiteral("missing.json")), qPrintable(missing.err));
        const QString broken = writeChat(dir_, QByteArray(kChat).left(200));
        const auto truncated = exportTo(broken, out);
        QCOMPARE(truncated.exitCode, 1);
        QVERIFY2(truncated.err.contains(QStringLiteral("not a chat file")),
                 qPrintable(truncated.err));
        const QString other = writeChat(dir_, R"({"format": "something-else"})");
        const auto wrong = exportTo(other, out);
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(wrong.err.contains(QStringLiteral("not a Folio chat")), qPrintable(wrong.err));
        QVERIFY(!QFile::exists(out));
        // An output folder that does not exist: a message, nothing written.
        const auto nowhere =
            exportTo(writeChat(dir_, kChat), dir_ + QStringLiteral("/no/such/folder/chat.pdf"));
        QCOMPARE(nowhere.exitCode, 1);
        QVERIFY(!nowhere.err.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestExportCli)
#include "test_export_cli.moc"
