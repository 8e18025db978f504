// The workbench's pieces on their own: chat files (versioned JSON, atomic), citations, the four
// export formats (PDF page count and CJK text read back with QtPdf; a failed write keeps the
// earlier file), settings into ModelSpec, the Devices pane fed synthetic cache statistics, and
// the transcript's Markdown.
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
#include "chat/chat_json.h"
#include "chat/chat_pane.h"
#include "chat/chat_store.h"
#include "chat/citations.h"
#include "chat/context_fit.h"
#include "chat/conversation_prompt.h"
#include "chat/transcript_view.h"
#include "devices/block_map_view.h"
#include "devices/devices_pane.h"
#include "devices/memory_bars.h"
#include "devices/throughput_chart.h"
#include "export/export_chat.h"
#include "export/pdf_export.h"
#include "settings/app_settings.h"
#include "settings/settings_dialog.h"
#include "storage/atomic_write.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

ChatMessage message(ChatMessage::Role role, const QString& text) {
    ChatMessage m;
    m.role = role;
    m.text = text;
    m.time = QDateTime::currentDateTime();
    return m;
}

ChatSession sampleChat() {
    ChatSession c = ChatSession::create();
    c.systemPrompt = QStringLiteral("Be brief.");
    c.settings.temperature = 0.2;
    c.settings.maxTokens = 77;
    c.settings.seed = 42;
    ChatMessage q = message(ChatMessage::Role::User, QStringLiteral("What was revenue?"));
    q.attachments = {QStringLiteral("report.pdf")};
    ChatMessage a = message(ChatMessage::Role::Assistant,
                            QStringLiteral("Revenue was **$4.5 billion** [p. 2].\n\n"
                                           "| year | revenue |\n|---|---|\n| 2025 | 4,500 |\n\n"
                                           "营业收入 grew, see [page 5]."));
    a.stats.promptTokens = 1200;
    a.stats.generatedTokens = 40;
    a.stats.decodeTps = 55.5;
    a.stats.prefillTps = 800;
    a.stats.ttftMs = 120;
    a.stats.stopReason = QStringLiteral("eos");
    c.messages = {q, a};
    return c;
}

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
        const QString xdg = folio::test::scratchDir(QStringLiteral("parts-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); // "4,096"
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_workbench_parts"));
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

    void settingsBecomeTheModelSpec() {
        AppSettings s = AppSettings::load();
        // Long-document defaults (issue #22 §5): the KV type is chosen per model at load time
        // (backend/long_context_defaults.h), the disk tier is on.
        QCOMPARE(s.kvType, QStringLiteral("auto"));
        QVERIFY(s.offloadEnabled);
        QVERIFY(s.offloadDir.startsWith(
            QStandardPaths::writableLocation(QStandardPaths::CacheLocation)));
        s.rememberModel(QStringLiteral("/m/a.gguf"));
        s.rememberModel(QStringLiteral("/m/b.gguf"));
        s.rememberModel(QStringLiteral("/m/a.gguf"));
        s.mmprojPath = QStringLiteral("/m/mmproj.gguf");
        s.threads = 3;
        s.context = 8192;
        s.ramBudgetMiB = 512;
        s.offloadEnabled = true;
        s.kvType = QStringLiteral("q8_0");
        s.speculation = false;
        QCOMPARE(s.weightsMemory, QStringLiteral("mapped"));
        QCOMPARE(toModelSpec(s.loadOptions()).weights, folio::WeightsMemory::Mapped);
        s.weightsMemory = QStringLiteral("auto");
        s.save();
        const AppSettings back = AppSettings::load();
        QCOMPARE(back.weightsMemory, QStringLiteral("auto"));
        QCOMPARE(toModelSpec(back.loadOptions()).weights, folio::WeightsMemory::Auto);
        QCOMPARE(back.recentModels,
                 (QStringList{QStringLiteral("/m/a.gguf"), QStringLiteral("/m/b.gguf")}));
        const folio::ModelSpec spec = toModelSpec(back.loadOptions());
        QCOMPARE(spec.gguf, std::string("/m/a.gguf"));
        QCOMPARE(spec.mmproj, std::string("/m/mmproj.gguf"));
        QCOMPARE(spec.threads, 3);
        QCOMPARE(spec.context, int64_t(8192));
        QCOMPARE(spec.cache.kv_type, folio::KvType::Q8_0);
        QCOMPARE(spec.cache.ram_budget, int64_t(512) * 1024 * 1024);
        QCOMPARE(QString::fromStdString(spec.cache.offload_dir), back.offloadDir);
        QVERIFY(!back.loadOptions().speculation);
        AppSettings off = back;
        off.offloadEnabled = false;
        off.ramBudgetMiB = 0;
        QVERIFY(toModelSpec(off.loadOptions()).cache.offload_dir.empty());
        QCOMPARE(toModelSpec(off.loadOptions()).cache.ram_budget, int64_t(-1));
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
            pane.setGenerating(true);
            pane.appendMessage(ChatMessage::Role::Assistant, QString());
            pane.appendToLast(text);
            MessageStats st;
            st.generatedTokens = 3;
            st.stopReason = QStringLiteral("eos");
            pane.setLastStats(st);
            pane.setGenerating(false);
        };
        // A notice during an answer (a document failed to load) waits until the answer ends.
        pane.setGenerating(true);
        pane.appendMessage(ChatMessage::Role::Assistant, QString());
        pane.appendToLast(QStringLiteral("first "));
        pane.appendMessage(ChatMessage::Role::Notice, QStringLiteral("bad.pdf: corrupt"));
        pane.appendToLast(QStringLiteral("answer"));
        MessageStats done;
        done.stopReason = QStringLiteral("eos");
        pane.setLastStats(done);
        pane.setGenerating(false);
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
        pane.setPrefillProgress(500, 2000, 2541.3); // 42.4 min: "about 42 min", not seconds
        QVERIFY2(gauge->text().contains(QStringLiteral("500 / 2,000")) &&
                     gauge->text().contains(QStringLiteral("about 42 min left")),
                 qPrintable(gauge->text()));
        QCOMPARE(gauge->value(), 250);
        pane.setContextUsage(1024, 4096);
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

    void oldTurnsLeaveThePromptFirst() {
        // Estimates (no model): ~4 characters per token, 8 tokens per turn.
        FitInput in;
        in.systemPrompt = QString(400, QLatin1Char('d')); // 100 + 8 tokens
        for (int i = 0; i < 5; ++i) {
            in.history.append({QStringLiteral("user"), QString(400, QLatin1Char('q')), {}});
            in.history.append({QStringLiteral("assistant"), QString(400, QLatin1Char('a')), {}});
        }
        in.question = {QStringLiteral("user"), QStringLiteral("now?"), {}}; // 1 + 8 tokens
        const TokenCounter estimates;
        PageTokenCache cache;
        const FitResult unknown = fitToContext(in, estimates, cache); // no limit known
        QCOMPARE(unknown.droppedTurns, 0);
        QCOMPARE(unknown.turns.size(), 12);
        QCOMPARE(unknown.promptTokens, 11 * 108 + 9);
        in.contextLimit = 100000;
        QCOMPARE(fitToContext(in, estimates, cache).droppedTurns, 0);
        // 500 tokens: 117 for the system turn and the question leave 383, three turns of 108;
        // the oldest kept turn must be a question, so two.
        in.contextLimit = 500;
        const FitResult fitted = fitToContext(in, estimates, cache);
        QCOMPARE(fitted.droppedTurns, 8);
        QCOMPARE(fitted.turns.size(), 4);
        QCOMPARE(fitted.turns.first().role, QStringLiteral("system"));
        QCOMPARE(fitted.turns.at(1).role, QStringLiteral("user"));
        QCOMPARE(fitted.turns.last().content, QStringLiteral("now?"));
        QCOMPARE(fitted.promptTokens, 117 + 2 * 108);
        // The answer's room counts too.
        in.answerTokens = 200; // 300 left: 183 for turns, one question and its answer do not fit
        QCOMPARE(fitToContext(in, estimates, cache).droppedTurns, 10);
        // When the question alone does not fit, nothing is sent and the user is told what to do.
        in.answerTokens = 0;
        in.contextLimit = 100;
        const FitResult none = fitToContext(in, estimates, cache);
        QVERIFY(none.turns.isEmpty());
        QVERIFY2(none.error.contains(QStringLiteral("117 tokens")) &&
                     none.error.contains(QStringLiteral("larger context")),
                 qPrintable(none.error));
    }

    void promptHasDocumentsPagesAndCharts() {
        ChatSession chat = sampleChat();
        chat.messages.append(message(ChatMessage::Role::Notice, QStringLiteral("x.pdf failed")));
        chat.messages.append(message(ChatMessage::Role::User, QStringLiteral("And margins?")));
        Document pdf;
        pdf.title = QStringLiteral("Report");
        pdf.kind = Document::Kind::Pdf;
        pdf.state = Document::State::Ready;
        // (Pages of 16 characters or more: shorter ones count as scanned, see below.)
        pdf.pageTexts = {QStringLiteral("Meridian annual report"),
                         QStringLiteral("Revenue rose 12 % in 2024")};
        Document chart;
        chart.path = QStringLiteral("/d/chart.png");
        chart.kind = Document::Kind::Image;
        chart.state = Document::State::Ready;
        Document broken;
        broken.kind = Document::Kind::Pdf;
        broken.state = Document::State::Failed;
        const TokenCounter estimates;
        PageTokenCache cache;
        PromptInput in{chat, QStringLiteral("And margins?"), {pdf, chart, broken}, 0, {}};
        const PromptPlan plan = planPrompt(in, estimates, cache);
        QCOMPARE(plan.turns.size(), 4); // system, question, answer, question (no notice)
        // The citation rule, then the ready PDF (the failed one after it keeps number 2).
        const QString system =
            QStringLiteral("Be brief.\n\n") + citationRule() +
            QStringLiteral(
                "[document 1: Report]\n[page 1]\nMeridian annual report\n[page 2]\nRevenue "
                "rose 12 % in 2024\n");
        QCOMPARE(plan.turns[0].content, system);
        QCOMPARE(plan.turns[3].content, QStringLiteral("And margins?"));
        // An open image goes only with the questions it is attached to (question_image.h).
        QCOMPARE(plan.turns[3].images, QStringList());
        QVERIFY(plan.turns[1].images.isEmpty());
        QCOMPARE(plan.droppedTurns, 0);
        QVERIFY(plan.contextNote.isEmpty()); // everything went in
        QCOMPARE(plan.promptTokens, TokenCounter::estimatePrompt(plan.turns));
        // A context that holds the documents and the question, not the first question and
        // answer: both are left out and the note says so.
        in.documents = {pdf};
        in.contextLimit = TokenCounter::estimatePrompt(
                              {{QStringLiteral("system"), system, {}},
                               {QStringLiteral("user"), QStringLiteral("And margins?"), {}}}) +
                          chat.settings.maxTokens + 5;
        const PromptPlan tight = planPrompt(in, estimates, cache);
        QCOMPARE(tight.droppedTurns, 2);
        QCOMPARE(tight.droppedMessages, (QList<int>{0, 1}));
        QCOMPARE(tight.turns.size(), 2);
        QCOMPARE(tight.turns[0].content, system); // the documents' prefix is unchanged
        QCOMPARE(tight.turns.last().content, QStringLiteral("And margins?"));
        QCOMPARE(tight.contextNote, QStringLiteral("2 earlier turns left out"));
        // The question given is the one asked: the chat's last user message is that question.
        PromptInput other{chat, QStringLiteral("And costs?"), {}, 0, {}};
        const PromptPlan costs = planPrompt(other, estimates, cache);
        QCOMPARE(costs.turns.size(), 4);
        QCOMPARE(costs.turns[2].role, QStringLiteral("assistant"));
        QCOMPARE(costs.turns[3].content, QStringLiteral("And costs?"));
    }

    void settingsDialogEditsEveryField() {
        AppSettings s;
        s.recentModels = {QStringLiteral("/m/a.gguf")};
        s.modelPath = QStringLiteral("/m/a.gguf");
        s.offloadDir = QStringLiteral("/tmp/off");
        SettingsDialog d(s);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        d.grab().save(folio::test::scratchDir(QStringLiteral("settings-shot")) +
                      QStringLiteral("/settings.png"));
        d.findChild<QComboBox*>(QStringLiteral("modelPathCombo"))
            ->setCurrentText(QStringLiteral("/m/b.gguf"));
        d.findChild<QComboBox*>(QStringLiteral("mmprojPathCombo"))
            ->setCurrentText(QStringLiteral("/m/p.gguf"));
        d.findChild<QSpinBox*>(QStringLiteral("threadsBox"))->setValue(2);
        d.findChild<QSpinBox*>(QStringLiteral("contextBox"))->setValue(16384);
        d.findChild<QSpinBox*>(QStringLiteral("ramBudgetBox"))->setValue(1024);
        d.findChild<QCheckBox*>(QStringLiteral("offloadCheck"))->setChecked(true);
        d.findChild<QComboBox*>(QStringLiteral("kvTypeCombo"))
            ->setCurrentText(QStringLiteral("bf16"));
        d.findChild<QCheckBox*>(QStringLiteral("speculationCheck"))->setChecked(false);
        auto* weights = d.findChild<QComboBox*>(QStringLiteral("weightsMemoryCombo"));
        QCOMPARE(weights->currentData().toString(), QStringLiteral("mapped"));
        weights->setCurrentIndex(weights->findData(QStringLiteral("ram")));
        const AppSettings out = d.settings();
        QCOMPARE(out.weightsMemory, QStringLiteral("ram"));
        QCOMPARE(toModelSpec(out.loadOptions()).weights, folio::WeightsMemory::Ram);
        QCOMPARE(out.modelPath, QStringLiteral("/m/b.gguf"));
        QCOMPARE(out.recentModels,
                 (QStringList{QStringLiteral("/m/b.gguf"), QStringLiteral("/m/a.gguf")}));
        QCOMPARE(out.mmprojPath, QStringLiteral("/m/p.gguf"));
        QCOMPARE(out.recentMmproj, QStringList{QStringLiteral("/m/p.gguf")});
        QCOMPARE(out.threads, 2);
        QCOMPARE(out.context, 16384);
        QCOMPARE(out.ramBudgetMiB, 1024);
        QVERIFY(out.offloadEnabled);
        QCOMPARE(out.offloadDir, QStringLiteral("/tmp/off"));
        QCOMPARE(out.kvType, QStringLiteral("bf16"));
        QVERIFY(!out.speculation);
        QCOMPARE(toModelSpec(out.loadOptions()).cache.kv_type, folio::KvType::BF16);
    }

    void devicesPaneShowsSyntheticCacheStats() {
        DevicesPane pane;
        pane.resize(360, 1200);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        folio::EngineStats es;
        es.model_loaded = true;
        es.state = "decode";
        es.context_used = 700;
        es.context_limit = 4096;
        es.window_decode_tps = 42;
        auto device = [](const char* name, folio::DeviceKind kind, int64_t budget, int64_t w,
                         int64_t kv, int64_t state, int64_t blocks) {
            folio::DeviceStats d;
            d.name = name;
            d.kind = kind;
            d.budget = budget;
            d.weights = w;
            d.kv = kv;
            d.state = state;
            d.blocks = blocks;
            return d;
        };
        es.cache.devices = {
            device("ram0", folio::DeviceKind::Ram, 64 << 20, 3 << 20, 8 << 20, 1 << 20, 10),
            device("ram1", folio::DeviceKind::Ram, 64 << 20, 0, 6 << 20, 0, 6),
            device("disk", folio::DeviceKind::Disk, -1, 0, 20 << 20, 0, 20)};
        es.cache.hits = 12;
        es.cache.misses = 3;
        es.cache.bytes_to_disk = 5 << 20;
        es.cache.blocks_ram = 16;
        es.cache.blocks_disk = 20;
        folio::SessionBlockMap a;
        a.session = 1;
        a.tokens = 11 * 64;
        for (int i = 0; i < 11; ++i) {
            folio::BlockCell c;
            c.tier = i < 4 ? folio::BlockTier::Disk
                           : (i == 4 ? folio::BlockTier::Mixed : folio::BlockTier::Ram);
            c.shared = i < 2;
            a.blocks.push_back(c);
        }
        folio::SessionBlockMap b = a;
        b.session = 2;
        es.block_map = {a, b};
        pane.setEngineStats(toEngineStatsQ(es));

        auto* table = pane.findChild<QTreeWidget*>(QStringLiteral("deviceTable"));
        QCOMPARE(table->topLevelItemCount(), 3);
        QCOMPARE(table->topLevelItem(2)->text(0), QStringLiteral("disk"));
        QCOMPARE(table->topLevelItem(2)->text(3), QStringLiteral("unlimited"));
        QCOMPARE(pane.memoryBars()->devices().size(), size_t(3));
        QVERIFY2(MemoryBars::describe(es.cache.devices[0]).contains(QStringLiteral("of 64.0 MiB")),
                 qPrintable(MemoryBars::describe(es.cache.devices[0])));
        QTRY_VERIFY(pane.memoryBars()->height() >= pane.memoryBars()->sizeHint().height());
        auto* label = pane.findChild<QLabel*>(QStringLiteral("cacheLabel"));
        QVERIFY2(label->text().contains(QStringLiteral("hits 12 / misses 3")),
                 qPrintable(label->text()));
        QVERIFY(label->text().contains(QStringLiteral("5.0 MiB to disk")));
        // Rates come from the counters' deltas: one snapshot is a base, the next a point.
        QCOMPARE(pane.throughputChart()->decodePoints(), 0);
        es.decode_tokens_total = 40;
        es.decode_busy_seconds = 0.9;
        es.snapshot_seconds = 1.0;
        pane.setEngineStats(toEngineStatsQ(es));
        QCOMPARE(pane.throughputChart()->decodePoints(), 1);

        // The block map paints each block in its tier's colour; shared blocks get a dark corner.
        BlockMapView* map = pane.blockMap();
        QCOMPARE(map->maps().size(), size_t(2));
        QTRY_VERIFY(map->height() > map->cellRect(1, 10).bottom());
        const QImage img = map->grab().toImage();
        auto at = [&](const QPoint& p) { return QColor(img.pixel(p)); };
        QCOMPARE(at(map->cellRect(0, 6).center()), BlockMapView::tierColor(folio::BlockTier::Ram));
        QCOMPARE(at(map->cellRect(0, 3).center()), BlockMapView::tierColor(folio::BlockTier::Disk));
        QCOMPARE(at(map->cellRect(1, 4).center()),
                 BlockMapView::tierColor(folio::BlockTier::Mixed));
        QVERIFY(at(map->cellRect(0, 0).topLeft() + QPoint(1, 1)).lightness() < 60);
        QVERIFY(at(map->cellRect(0, 2).topLeft() + QPoint(1, 1)).lightness() > 60);

        // The bars: the first device's KV segment is painted in the KV colour (weights are
        // not in the KV budget and not on the bars).
        const QImage bars = pane.memoryBars()->grab().toImage();
        QCOMPARE(QColor(bars.pixel(4, 2 + 17 + 6)), MemoryBars::categoryColor(1));

        // Kept for people (and docs) to look at: the pane with synthetic cache figures.
        QTest::qWait(100); // let the layouts settle
        pane.grab().save(folio::test::scratchDir(QStringLiteral("devices-shot")) +
                         QStringLiteral("/devices.png"));

        es.state = "prefill";
        es.snapshot_seconds = 1.25; // no prefill counted yet: no point
        pane.setEngineStats(toEngineStatsQ(es));
        QCOMPARE(pane.throughputChart()->prefillPoints(), 0);
        // While the prompt is read, the rate comes from the prefill counter between polls.
        es.prefill_tokens_total = 400;
        es.prefill_busy_seconds = 3.9;
        es.snapshot_seconds = 5.25;
        pane.setEngineStats(toEngineStatsQ(es));
        QCOMPARE(pane.throughputChart()->prefillPoints(), 1);
    }
};

QTEST_MAIN(TestWorkbenchParts)
#include "test_workbench_parts.moc"
