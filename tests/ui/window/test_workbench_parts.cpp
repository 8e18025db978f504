// The workbench's pieces on their own: chat files (versioned JSON, atomic), citations, the four
// export formats (PDF page count and CJK text read back with QtPdf; a failed write keeps the
// earlier file), the transcript's Markdown and the chat pane's actions. Prompts, settings and
// the Devices pane are test_chat_prompt, test_app_settings and test_devices_pane.
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPdfDocument>
#include <QPdfSelection>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextList>
#include <QTextTable>
#include <QTreeWidget>
#include <QtTest>

#include <csignal>
#include <sys/resource.h>

#include "backend/engine_stats_q.h"
#include "backend/load_options.h"
#include "chat/chat_pane.h"
#include "chat/context_fit.h"
#include "chat/conversation_prompt.h"
#include "chat/transcript_view.h"
#include "core/chat/chat_json.h"
#include "core/chat/chat_store.h"
#include "core/chat/citations.h"
#include "core/export/export_chat.h"
#include "core/export/pdf_export.h"
#include "core/storage/atomic_write.h"
#include "devices/block_map_view.h"
#include "devices/devices_pane.h"
#include "devices/memory_bars.h"
#include "devices/throughput_chart.h"
#include "settings/app_settings.h"
#include "settings/settings_dialog.h"
#include "support/test_support.h"
#include "ui/workbench_parts.h"

using namespace folio::ui;
using folio::test::message;
using folio::test::sampleChat;

namespace {

QString readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString pdfText(const QString& path, int* pages) {
    QPdfDocument pdf;
    if (pdf.load(path) != QPdfDocument::Error::None)
        return {};
    *pages = pdf.pageCount();
    QString text;
    for (int i = 0; i < pdf.pageCount(); ++i)
        text += pdf.getAllText(i).text() + QLatin1Char('\n');
    return text;
}

} // namespace

class TestWorkbenchParts : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        folio::test::useScratchSettings(QStringLiteral("parts-xdg"),
                                        QStringLiteral("test_workbench_parts"));
    }

    void chatJsonRoundTripAndVersions() {
        const ChatSession c = sampleChat();
        const QJsonObject json = chatToJson(c);
        QCOMPARE(json.value(QStringLiteral("version")).toInt(), kChatFormatVersion);
        QCOMPARE(json.value(QStringLiteral("format")).toString(), QStringLiteral("folio-chat"));
        ChatSession back;
        QString error;
        QVERIFY2(chatFromJson(json, back, &error), qPrintable(error));
        QCOMPARE(back.id, c.id);
        QCOMPARE(back.systemPrompt, c.systemPrompt);
        QCOMPARE(back.settings.maxTokens, 77);
        QCOMPARE(back.settings.seed, quint64(42));
        QCOMPARE(back.messages.size(), 2);
        QCOMPARE(back.messages[0].attachments, QStringList{QStringLiteral("report.pdf")});
        QCOMPARE(back.messages[1].text, c.messages[1].text);
        QCOMPARE(back.messages[1].stats.generatedTokens, 40);
        QCOMPARE(back.messages[1].stats.stopReason, QStringLiteral("eos"));
        QCOMPARE(back.messages[1].time.toMSecsSinceEpoch(), c.messages[1].time.toMSecsSinceEpoch());

        QJsonObject future = json;
        future.insert(QStringLiteral("version"), kChatFormatVersion + 1);
        QVERIFY(!chatFromJson(future, back, &error));
        QVERIFY2(error.contains(QStringLiteral("version")), qPrintable(error));
    }

    void chatStoreKeepsChatsAndReportsBadFiles() {
        const QString dir = folio::test::scratchDir(QStringLiteral("chat-store"));
        ChatStore store(dir + QStringLiteral("/chats"));
        ChatSession older = sampleChat();
        older.updated = QDateTime::currentDateTime().addSecs(-60);
        ChatSession newer = sampleChat();
        newer.updated = QDateTime::currentDateTime();
        QCOMPARE(store.save(older), QString());
        QCOMPARE(store.save(newer), QString());
        QFile bad(dir + QStringLiteral("/chats/broken.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{ not json");
        bad.close();
        QStringList errors;
        const QList<ChatSession> chats = store.loadAll(&errors);
        QCOMPARE(chats.size(), 2);
        QCOMPARE(chats[0].id, newer.id);
        QCOMPARE(errors.size(), 1);
        QVERIFY(errors[0].startsWith(QStringLiteral("broken.json")));
        QVERIFY(store.remove(older.id));
        QCOMPARE(store.loadAll().size(), 1);
    }

    void citationsBecomeLinks() {
        const QString md = QStringLiteral("Up [p. 12], down [page 3], [P. 7] and [p. 2](x).");
        const QString linked = linkCitations(md, QStringLiteral("folio:page/%1"));
        QVERIFY2(linked.contains(QStringLiteral("[\\[p. 12\\]](folio:page/12)")),
                 qPrintable(linked));
        QVERIFY(linked.contains(QStringLiteral("[\\[page 3\\]](folio:page/3)")));
        QVERIFY(linked.contains(QStringLiteral("(folio:page/7)")));
        QVERIFY(linked.contains(QStringLiteral("[p. 2](x)"))); // already a link: untouched
        QCOMPARE(citedPages(md), (QList<int>{12, 3, 7, 2}));
        QCOMPARE(pageFromCitationUrl(QStringLiteral("folio:page/12")), 12);
        QCOMPARE(pageFromCitationUrl(QStringLiteral("https://x/12")), 0);
    }

    void transcriptRendersMarkdownAndCitationLinks() {
        TranscriptView view;
        QList<ChatMessage> msgs = sampleChat().messages;
        msgs[1].text += QStringLiteral("\n\n- one\n- two\n\n```\nint x = 1;\n```\n");
        view.showMessages(msgs, false);
        QTextDocument* doc = view.document();
        bool table = false, list = false, code = false;
        QStringList hrefs;
        for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
            list |= b.textList() != nullptr;
            code |=
                b.text().contains(QStringLiteral("int x = 1;")) && b.charFormat().fontFixedPitch();
            QTextCursor c(b);
            table |= c.currentTable() != nullptr;
            for (auto it = b.begin(); !it.atEnd(); ++it)
                if (it.fragment().charFormat().isAnchor())
                    hrefs << it.fragment().charFormat().anchorHref();
        }
        QVERIFY(table);
        QVERIFY(list);
        QVERIFY(code || doc->toPlainText().contains(QStringLiteral("int x = 1;")));
        QVERIFY2(hrefs.contains(QStringLiteral("folio:page/2")), qPrintable(hrefs.join(',')));
        QVERIFY(hrefs.contains(QStringLiteral("folio:page/5")));
        QVERIFY(hrefs.contains(QStringLiteral("folio:copy/1")));
        QVERIFY(hrefs.contains(QStringLiteral("folio:regenerate/1")));
        QVERIFY(hrefs.contains(QStringLiteral("folio:edit/0")));
        QVERIFY(doc->toPlainText().contains(QStringLiteral("decode 55.5 t/s")));

        // Streaming: updates are coalesced, then the last message is laid out again.
        ChatMessage streaming = message(ChatMessage::Role::Assistant, QString());
        msgs.append(streaming);
        view.showMessages(msgs, true);
        for (int i = 0; i < 200; ++i) {
            streaming.text += QStringLiteral("tok%1 ").arg(i);
            view.updateLast(streaming);
        }
        QVERIFY(!doc->toPlainText().contains(QStringLiteral("tok199")));
        view.flush();
        QVERIFY(doc->toPlainText().contains(QStringLiteral("tok199")));
        QVERIFY(doc->toPlainText().contains(QStringLiteral("What was revenue?")));
    }

    void exportsEveryFormat() {
        const QString dir = folio::test::scratchDir(QStringLiteral("export-formats"));
        const ChatSession chat = sampleChat();
        ExportContext ctx;
        ctx.title = QStringLiteral("Revenue Q&A");
        ctx.documentPath = QStringLiteral("/data/report.pdf");
        ctx.documents = {QStringLiteral("report.pdf")};
        ctx.model = QStringLiteral("demo");

        QCOMPARE(exportChat(dir + QStringLiteral("/a.md"), chat, ctx), QString());
        const QString md = readAll(dir + QStringLiteral("/a.md"));
        QVERIFY2(
            md.startsWith(QStringLiteral("# Revenue Q&A\n\n*Documents: report.pdf*\n\n## You")),
            qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("[p. 2]")) && md.contains(QStringLiteral("[page 5]")));

        QCOMPARE(exportChat(dir + QStringLiteral("/a.html"), chat, ctx), QString());
        const QString html = readAll(dir + QStringLiteral("/a.html"));
        QVERIFY(html.contains(QStringLiteral("<h1>Revenue Q&amp;A</h1>")));
        // Links to the document are relative to the export's folder.
        const QString link = QDir(dir).relativeFilePath(QStringLiteral("/data/report.pdf"));
        QVERIFY2(html.contains(link + QStringLiteral("#page=2")), qPrintable(html));
        QVERIFY(link.startsWith(QStringLiteral("../")));
        QVERIFY(!html.contains(QStringLiteral("file://")));
        QVERIFY(html.contains(QStringLiteral("[p. 2]")));
        QVERIFY(html.contains(QStringLiteral("<table")));

        QCOMPARE(exportChat(dir + QStringLiteral("/a.json"), chat, ctx), QString());
        QJsonParseError err;
        const QJsonObject json =
            QJsonDocument::fromJson(readAll(dir + QStringLiteral("/a.json")).toUtf8(), &err)
                .object();
        QCOMPARE(err.error, QJsonParseError::NoError);
        QCOMPARE(json.value(QStringLiteral("system_prompt")).toString(),
                 QStringLiteral("Be brief."));
        QCOMPARE(json.value(QStringLiteral("settings"))
                     .toObject()
                     .value(QStringLiteral("max_tokens"))
                     .toInt(),
                 77);
        const QJsonArray messages = json.value(QStringLiteral("messages")).toArray();
        QCOMPARE(messages.size(), 2);
        QCOMPARE(messages[1]
                     .toObject()
                     .value(QStringLiteral("stats"))
                     .toObject()
                     .value(QStringLiteral("generated_tokens"))
                     .toInt(),
                 40);
        QCOMPARE(json.value(QStringLiteral("documents")).toArray().first().toString(),
                 QStringLiteral("report.pdf"));

        QCOMPARE(exportChat(dir + QStringLiteral("/a.pdf"), chat, ctx), QString());
        int pages = 0;
        const QString text = pdfText(dir + QStringLiteral("/a.pdf"), &pages);
        QCOMPARE(pages, 1);
        QVERIFY2(text.contains(QStringLiteral("Revenue Q&A")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("[p. 2]")));
        QVERIFY2(text.contains(QStringLiteral("营业收入")), qPrintable(text));
    }

    void longPdfHasTheReportedPageCount() {
        ChatSession chat = sampleChat();
        for (int i = 0; i < 40; ++i)
            chat.messages.append(message(
                ChatMessage::Role::Assistant,
                QStringLiteral("Paragraph %1: 财务摘要 operating income rose [p. %2].\n\n- a\n- b")
                    .arg(i)
                    .arg(i % 8 + 1)));
        ExportContext ctx;
        ctx.title = QStringLiteral("Long");
        const QString path =
            folio::test::scratchDir(QStringLiteral("export-long")) + QStringLiteral("/long.pdf");
        const PdfExportResult r = writeHtmlAsPdf(path, ctx.title, transcriptToHtml(chat, ctx));
        QCOMPARE(r.error, QString());
        QVERIFY(r.pages > 1);
        int pages = 0;
        const QString text = pdfText(path, &pages);
        QCOMPARE(pages, r.pages);
        QVERIFY(text.contains(QStringLiteral("Paragraph 39")));
        QVERIFY(text.contains(QStringLiteral("财务摘要")));
    }

    void failedExportKeepsTheEarlierFile() {
        const QString dir = folio::test::scratchDir(QStringLiteral("export-fail"));
        const QString path = dir + QStringLiteral("/summary.json");
        QCOMPARE(writeTextFileAtomic(path, QStringLiteral("earlier")), QString());
        ChatSession chat = sampleChat();
        chat.messages[1].text = QString(200000, QLatin1Char('x'));
        // Writes beyond 64 KiB fail (EFBIG) in this process: the export must fail cleanly.
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit old{};
        getrlimit(RLIMIT_FSIZE, &old);
        rlimit small = old;
        small.rlim_cur = 64 * 1024;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        const QString error = exportChat(path, chat, ExportContext{});
        setrlimit(RLIMIT_FSIZE, &old);
        QVERIFY(!error.isEmpty());
        QCOMPARE(readAll(path), QStringLiteral("earlier"));
        QCOMPARE(QDir(dir).entryList(QDir::Files), QStringList{QStringLiteral("summary.json")});
        QVERIFY(!exportChat(dir + QStringLiteral("/no/such/dir/x.pdf"), chat, {}).isEmpty());
    }

    void chatActionsRegenerateEditCopyDelete() {
        const QString dir = folio::test::scratchDir(QStringLiteral("chat-actions"));
        ChatPane pane;
        pane.openStore(dir);
        pane.setModelReady(true, QString());
        QSignalSpy sends(&pane, &ChatPane::sendRequested);
        pane.setAttachments({QStringLiteral("report.pdf")});
        pane.submitText(QStringLiteral("first question"));
        QCOMPARE(sends.size(), 1);
        QCOMPARE(pane.messages().last().attachments, QStringList{QStringLiteral("report.pdf")});
        auto answer = [&](const QString& text) {
            pane.setWork(pane.currentChat().id, ChatLibrary::Work::Answering);
            pane.appendMessage(ChatMessage::Role::Assistant, QString());
            pane.appendToLast(pane.currentChat().id, text);
            MessageStats st;
            st.generatedTokens = 3;
            st.stopReason = QStringLiteral("eos");
            pane.setLastStats(pane.currentChat().id, st);
            pane.setWork(pane.currentChat().id, ChatLibrary::Work::None);
        };
        // A notice during an answer (a document failed to load) waits until the answer ends.
        pane.setWork(pane.currentChat().id, ChatLibrary::Work::Answering);
        pane.appendMessage(ChatMessage::Role::Assistant, QString());
        pane.appendToLast(pane.currentChat().id, QStringLiteral("first "));
        pane.appendMessage(ChatMessage::Role::Notice, QStringLiteral("bad.pdf: corrupt"));
        pane.appendToLast(pane.currentChat().id, QStringLiteral("answer"));
        MessageStats done;
        done.stopReason = QStringLiteral("eos");
        pane.setLastStats(pane.currentChat().id, done);
        pane.setWork(pane.currentChat().id, ChatLibrary::Work::None);
        QCOMPARE(pane.messages().size(), 3);
        QCOMPARE(pane.messages().at(1).text, QStringLiteral("first answer"));
        QCOMPARE(pane.messages().at(2).role, ChatMessage::Role::Notice);
        pane.regenerate(); // keeps the answer and the notice as a version, asks again
        QCOMPARE(sends.size(), 2);
        answer(QStringLiteral("first answer"));
        QCOMPARE(pane.messages().size(), 2);

        // Regenerate: the answer leaves the branch shown, the question is asked again.
        pane.regenerate();
        QCOMPARE(pane.messages().size(), 1);
        QCOMPARE(sends.size(), 3);
        QCOMPARE(sends.last().first().toString(), QStringLiteral("first question"));
        answer(QStringLiteral("second answer"));

        // Copy puts a message's text on the clipboard.
        pane.copyMessage(1);
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("second answer"));

        // Edit and resend: the question returns to the input; sent, it starts a new branch.
        pane.editAndResend(0);
        QCOMPARE(pane.messages().size(), 2);
        auto* input = pane.findChild<QPlainTextEdit*>(QStringLiteral("chatInput"));
        QCOMPARE(input->toPlainText(), QStringLiteral("first question"));
        input->setPlainText(QStringLiteral("edited question"));
        pane.findChild<QPushButton*>(QStringLiteral("sendButton"))->click();
        QCOMPARE(sends.last().first().toString(), QStringLiteral("edited question"));
        answer(QStringLiteral("third answer"));
        QCOMPARE(pane.messages().size(), 2);
        QCOMPARE(pane.messages().first().text, QStringLiteral("edited question"));

        // Prefill progress with its ETA, then the context used.
        auto* gauge = pane.findChild<QProgressBar*>(QStringLiteral("contextGauge"));
        pane.setPrefillProgress(pane.currentChat().id, 500, 2000,
                                2541.3); // 42.4 min: "about 42 min", not seconds
        QVERIFY2(gauge->text().contains(QStringLiteral("500 / 2,000")) &&
                     gauge->text().contains(QStringLiteral("about 42 min left")),
                 qPrintable(gauge->text()));
        QCOMPARE(gauge->value(), 250);
        pane.setContextUsage(pane.currentChat().id, 1024, 4096);
        QVERIFY2(gauge->text().contains(QStringLiteral("1,024 / 4,096")),
                 qPrintable(gauge->text()));

        // Several chats, each with its own settings; renamed and deleted ones stay so on disk.
        const QString firstId = pane.currentChat().id;
        GenerationSettings g;
        g.temperature = 0;
        pane.setChatSettings(QStringLiteral("Only French."), g);
        pane.newChat();
        QCOMPARE(pane.chats().size(), 2);
        QCOMPARE(pane.messages().size(), 0);
        pane.submitText(QStringLiteral("second chat"));
        answer(QStringLiteral("ok"));
        pane.renameChat(1, QStringLiteral("French chat"));
        pane.waitForSaves();
        {
            ChatPane again;
            again.openStore(dir);
            QCOMPARE(again.chats().size(), 2);
            bool found = false;
            for (const ChatSession& c : again.chats()) {
                if (c.id == firstId) {
                    found = true;
                    QCOMPARE(c.title, QStringLiteral("French chat"));
                    QCOMPARE(c.systemPrompt, QStringLiteral("Only French."));
                    QCOMPARE(c.settings.temperature, 0.0);
                    QCOMPARE(c.messages.last().text, QStringLiteral("third answer"));
                }
            }
            QVERIFY(found);
        }
        pane.deleteChat(1);
        QCOMPARE(pane.chats().size(), 1);
        ChatPane third;
        third.openStore(dir);
        QCOMPARE(third.chats().size(), 1);
        QCOMPARE(third.currentChat().messages.first().text, QStringLiteral("second chat"));
    }
};

QTEST_MAIN(TestWorkbenchParts)
#include "test_workbench_parts.moc"
