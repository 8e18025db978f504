// Issue #22 §1 and §6 on the workbench: documents belong to a chat (chat file version 2, the
// migration of version-1 files), citations of every form link to the right document and page,
// and the real window (offscreen, demo model): two documents, a citation opens the right one at
// the cited page, a removed document leaves the next prompt, a question asked while a document
// loads waits for it, a restart reopens the chat's documents, a missing file is named with
// "Locate…" and located again.
#include <QApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QPdfView>
#include <QPdfWriter>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QToolButton>
#include <QtTest>

#include "chat/chat_pane.h"
#include "chat/transcript_view.h"
#include "core/chat/chat_json.h"
#include "core/chat/chat_store.h"
#include "core/chat/citations.h"
#include "core/export/transcript_export.h"
#include "documents/documents_pane.h"
#include "main_window.h"
#include "support/test_support.h"
#include "ui/transcript_probe.h"

using namespace folio::ui;

namespace {

QString sample(const QString& name) {
    return folio::test::builtProgram(QStringLiteral("generated/samples/") + name);
}

QString demoModel() {
    return folio::test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
}

// A small PDF of `pages` pages, each saying which page it is.
void writePdf(const QString& path, const QString& title, int pages) {
    QPdfWriter writer(path);
    writer.setTitle(title);
    QPainter p(&writer);
    for (int i = 1; i <= pages; ++i) {
        if (i > 1)
            writer.newPage();
        p.setFont(QFont(QStringLiteral("Sans"), 14));
        p.drawText(QRect(200, 200, 8000, 600), QStringLiteral("Appendix page %1.").arg(i));
    }
}

void selectChatById(MainWindow& w, const QString& id) {
    for (int i = 0; i < w.chatPane()->chats().size(); ++i)
        if (w.chatPane()->chats()[i].id == id)
            w.chatPane()->selectChat(i);
}

bool clickAnchor(TranscriptView* view, const QString& href) {
    const int pos = folio::test::anchorPosition(view->document(), href);
    if (pos < 0)
        return false;
    QTextCursor cursor(view->document());
    cursor.setPosition(pos + 1);
    view->setTextCursor(cursor);
    view->ensureCursorVisible();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->cursorRect(cursor).center());
    return true;
}

QString lastNotice(MainWindow& w) {
    const auto& msgs = w.chatPane()->messages();
    for (auto it = msgs.crbegin(); it != msgs.crend(); ++it)
        if (it->role == ChatMessage::Role::Notice)
            return it->text;
    return {};
}

const QList<CitationDocument> kTwoDocs = {
    {QStringLiteral("Annual Report"), QStringLiteral("report.pdf"), 8},
    {QStringLiteral("Appendix"), QStringLiteral("appendix.pdf"), 3}};

} // namespace

class TestChatDocuments : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("chat-documents-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_chat_documents"));
    }

    // The preview (QPdfView, pages fitted to the width) of a one-page PDF comes to rest at every
    // size. With the vertical scroll bar shown only as needed, a page whose fitted height lies
    // between the heights fitted with and without the bar made the bar appear (narrower: the
    // page fits) and disappear (wider: it does not) forever, one posted event after another:
    // the window stopped answering (seen as test_soak running until its timeout).
    void onePagePreviewComesToRestAtEverySize() {
        const QString dir = folio::test::scratchDir(QStringLiteral("chat-documents-preview"));
        const QString pdf = dir + QStringLiteral("/one-page.pdf");
        writePdf(pdf, QStringLiteral("One page"), 1);
        DocumentsPane pane;
        pane.resize(300, 600);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        pane.openFiles({pdf});
        QTRY_VERIFY_WITH_TIMEOUT(!pane.documents().isEmpty() &&
                                     pane.documents().first().state == Document::State::Ready,
                                 30000);
        auto* view = pane.findChild<QPdfView*>();
        QVERIFY(view);
        QTRY_VERIFY(view->isVisible());
        QWidget* bar = view->verticalScrollBar()->parentWidget(); // the bar's container
        struct Toggles : QObject {
            int count = 0;
            bool eventFilter(QObject*, QEvent* e) override {
                count += e->type() == QEvent::Show || e->type() == QEvent::Hide;
                return false;
            }
        } toggles;
        bar->installEventFilter(&toggles);
        int restless = 0; // the first height that never came to rest
        for (int height = 300; height <= 1400 && restless == 0; height += 2) {
            pane.resize(300, height);
            for (int i = 0; i < 4; ++i)
                QCoreApplication::processEvents();
            toggles.count = 0;
            for (int i = 0; i < 6; ++i)
                QCoreApplication::processEvents();
            if (toggles.count > 2)
                restless = height;
        }
        pane.resize(300, 600); // a size that rests either way, so a failure ends here
        QVERIFY2(restless == 0,
                 qPrintable(QStringLiteral("the preview's scroll bar never came to rest at %1 px")
                                .arg(restless)));
    }

    void chatFileKeepsDocumentsAndMigratesVersion1() {
        QCOMPARE(kChatFormatVersion, 3);
        ChatSession c = ChatSession::create();
        ChatMessage question;
        question.text = QStringLiteral("Q");
        c.messages.append(question);
        c.documents = {{QStringLiteral("/data/report.pdf"), QStringLiteral("ab12"),
                        QStringLiteral("Annual Report"), 236, false, QStringLiteral("1-4, 37")},
                       {QStringLiteral("/data/chart.png"), QStringLiteral("cd34"),
                        QStringLiteral("chart.png"), 1, true, QString()}};
        const QJsonObject json = chatToJson(c);
        QCOMPARE(json.value(QStringLiteral("version")).toInt(), 3);
        const QJsonObject first =
            json.value(QStringLiteral("documents")).toArray().first().toObject();
        QCOMPARE(first.value(QStringLiteral("path")).toString(),
                 QStringLiteral("/data/report.pdf"));
        QCOMPARE(first.value(QStringLiteral("fingerprint")).toString(), QStringLiteral("ab12"));
        QCOMPARE(first.value(QStringLiteral("pages")).toInt(), 236);
        QCOMPARE(first.value(QStringLiteral("pinned_pages")).toString(), QStringLiteral("1-4, 37"));
        ChatSession back;
        QString error;
        QVERIFY2(chatFromJson(json, back, &error), qPrintable(error));
        QCOMPARE(back.documents, c.documents);

        // A version-1 file as Folio wrote it before documents belonged to chats.
        const QString dir =
            folio::test::scratchDir(QStringLiteral("chat-v1")) + QStringLiteral("/chats");
        QDir().mkpath(dir);
        QFile old(dir + QStringLiteral("/old.json"));
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write(R"({"format": "folio-chat", "version": 1, "id": "old", "title": "",
            "system_prompt": "Be brief.", "settings": {"temperature": 0.5},
            "created": "2026-01-02T10:00:00.000", "updated": "2026-01-02T10:05:00.000",
            "messages": [
              {"role": "user", "text": "What was revenue?", "time": "2026-01-02T10:00:00.000",
               "attachments": ["Annual Report 2025", "chart.png"]},
              {"role": "assistant", "text": "4.5 bn [p. 3]", "time": "2026-01-02T10:00:09.000",
               "stats": {"prompt_tokens": 900, "stop_reason": "eos"}}]})");
        old.close();
        ChatStore store(dir);
        QStringList errors;
        const QList<ChatSession> chats = store.loadAll(&errors);
        QCOMPARE(errors, QStringList());
        QCOMPARE(chats.size(), 1);
        QCOMPARE(chats[0].documents.size(), 0); // titles only: nothing to reopen
        QCOMPARE(chats[0].messages.size(), 2);
        QCOMPARE(chats[0].messages[0].attachments,
                 (QStringList{QStringLiteral("Annual Report 2025"), QStringLiteral("chart.png")}));
        QCOMPARE(chats[0].messages[1].stats.promptTokens, 900);
        // Saved again, it is a version-3 file with an empty document list.
        QCOMPARE(store.save(chats[0]), QString());
        QFile again(store.pathFor(QStringLiteral("old")));
        QVERIFY(again.open(QIODevice::ReadOnly));
        const QJsonObject saved = QJsonDocument::fromJson(again.readAll()).object();
        QCOMPARE(saved.value(QStringLiteral("version")).toInt(), 3);
        QVERIFY(saved.value(QStringLiteral("documents")).isArray());
        QCOMPARE(saved.value(QStringLiteral("documents")).toArray().size(), 0);
    }

    void citationFormsWithOneDocument() {
        const QList<CitationDocument> one = {kTwoDocs[0]};
        auto only = [&](const QString& text) {
            const QList<Citation> c = findCitations(text, one);
            return c.size() == 1 ? c[0] : Citation{};
        };
        QCOMPARE(only(QStringLiteral("see [p. 3].")).pages(), QList<int>{3});
        QCOMPARE(only(QStringLiteral("see [p. 3].")).document, 0);
        QCOMPARE(only(QStringLiteral("[pp. 3–5]")).pages(), (QList<int>{3, 4, 5}));
        QCOMPARE(only(QStringLiteral("[pp. 3-5]")).pages(), (QList<int>{3, 4, 5}));
        QCOMPARE(only(QStringLiteral("[p. 3, 5]")).pages(), (QList<int>{3, 5}));
        QCOMPARE(only(QStringLiteral("[p. 3, 5]")).items.size(), 2);
        QCOMPARE(only(QStringLiteral("[page 3]")).pages(), QList<int>{3});
        QCOMPARE(only(QStringLiteral("[Pages 2-4, 7]")).pages(), (QList<int>{2, 3, 4, 7}));
        auto url = [](int d, int p) { return citationUrl(d, p); };
        QCOMPARE(linkCitations(QStringLiteral("A [p. 3]."), one, url),
                 QStringLiteral("A [\\[p. 3\\]](folio:cite/0/3)."));
        QCOMPARE(linkCitations(QStringLiteral("[p. 3, 5]"), one, url),
                 QStringLiteral("\\[p. [3](folio:cite/0/3), [5](folio:cite/0/5)\\]"));
        QCOMPARE(linkCitations(QStringLiteral("[pp. 3–5]"), one, url),
                 QStringLiteral("[\\[pp. 3–5\\]](folio:cite/0/3)"));
        // Page 9 of an 8-page report is not a link; in a list only the real page is.
        QCOMPARE(linkCitations(QStringLiteral("[p. 9]"), one, url), QStringLiteral("[p. 9]"));
        QCOMPARE(linkCitations(QStringLiteral("[pp. 7-9]"), one, url), QStringLiteral("[pp. 7-9]"));
        QCOMPARE(linkCitations(QStringLiteral("[p. 2, 9]"), one, url),
                 QStringLiteral("\\[p. [2](folio:cite/0/2), 9\\]"));
        // Code is left alone: fenced blocks and inline spans.
        const QString code =
            QStringLiteral("```\nx = a[p. 3]\n```\nand `b[p. 4]` but [p. 5]\n~~~\n[p. 6]\n~~~\n");
        const QList<Citation> inCode = findCitations(code, one);
        QCOMPARE(inCode.size(), 1);
        QCOMPARE(inCode[0].pages(), QList<int>{5});
        QVERIFY(linkCitations(code, one, url).contains(QStringLiteral("x = a[p. 3]")));
        QVERIFY(linkCitations(code, one, url).contains(QStringLiteral("`b[p. 4]`")));
        QVERIFY(linkCitations(code, one, url).contains(QStringLiteral("(folio:cite/0/5)")));
        int d = -2, p = 0;
        QVERIFY(citationFromUrl(QStringLiteral("folio:cite/1/37"), &d, &p));
        QCOMPARE(d, 1);
        QCOMPARE(p, 37);
        QVERIFY(!citationFromUrl(QStringLiteral("folio:page/3"), &d, &p));
    }

    void citationFormsWithTwoDocuments() {
        auto first = [](const QString& text) {
            const QList<Citation> c = findCitations(text, kTwoDocs);
            return c.isEmpty() ? Citation{} : c[0];
        };
        QCOMPARE(first(QStringLiteral("[doc 2, p. 3]")).document, 1);
        QCOMPARE(first(QStringLiteral("[doc 2, p. 3]")).pages(), QList<int>{3});
        QCOMPARE(first(QStringLiteral("[Doc 1, pp. 3–5]")).document, 0);
        QCOMPARE(first(QStringLiteral("[document 2, page 1]")).document, 1);
        QCOMPARE(first(QStringLiteral("[appendix.pdf, p. 2]")).document, 1);
        QCOMPARE(first(QStringLiteral("[report.pdf, p. 7]")).document, 0);
        QCOMPARE(first(QStringLiteral("[Annual Report, p. 7]")).document, 0);
        QCOMPARE(first(QStringLiteral("[doc 3, p. 1]")).document, -1); // no third document
        QCOMPARE(first(QStringLiteral("[Budget.xlsx, p. 1]")).document, -1);
        // Without a document: the one cited just before, else the only one with that page.
        const QList<Citation> run =
            findCitations(QStringLiteral("[doc 2, p. 1] and then [p. 2]"), kTwoDocs);
        QCOMPARE(run.size(), 2);
        QCOMPARE(run[1].document, 1);
        QCOMPARE(first(QStringLiteral("[p. 7]")).document, 0);  // only the report has a page 7
        QCOMPARE(first(QStringLiteral("[p. 2]")).document, -1); // both have one: ambiguous
        auto url = [](int d, int p) { return citationUrl(d, p); };
        QCOMPARE(linkCitations(QStringLiteral("[doc 2, p. 3] [doc 2, p. 5] [p. 2]"), kTwoDocs, url),
                 QStringLiteral("[\\[doc 2, p. 3\\]](folio:cite/1/3) [doc 2, p. 5] "
                                "[\\[p. 2\\]](folio:cite/1/2)"));
        QCOMPARE(linkCitations(QStringLiteral("[appendix.pdf, p. 3]"), kTwoDocs, url),
                 QStringLiteral("[\\[appendix.pdf, p. 3\\]](folio:cite/1/3)"));
    }

    // The grammar is read by folio_figures in code points; the workbench's positions are UTF-16
    // units. Text beyond the BMP (an emoji is two units) before and inside a list must not
    // shift the links, and titles compare without regard to case in every Latin, Greek and
    // Cyrillic script, as they did when the workbench read the grammar itself.
    void citationsAfterWideCharactersAndNonAsciiTitles() {
        const QList<CitationDocument> docs = {
            {QStringLiteral("Årsrapport"), QStringLiteral("årsrapport.pdf"), 40},
            {QStringLiteral("Отчёт"), QStringLiteral("otchet.pdf"), 12}};
        const QString text = QStringLiteral("📈 Up 5% [ÅRSRAPPORT, p. 3, 7] and 🚀 [отчёт, p. 2].");
        const QList<Citation> found = findCitations(text, docs);
        QCOMPARE(found.size(), 2);
        QCOMPARE(found[0].document, 0);
        QCOMPARE(found[0].pages(), (QList<int>{3, 7}));
        QCOMPARE(text.mid(found[0].start, found[0].length),
                 QStringLiteral("[ÅRSRAPPORT, p. 3, 7]"));
        QCOMPARE(found[1].document, 1);
        QCOMPARE(text.mid(found[1].start, found[1].length), QStringLiteral("[отчёт, p. 2]"));
        auto url = [](int d, int p) { return citationUrl(d, p); };
        QCOMPARE(
            linkCitations(text, docs, url),
            QStringLiteral("📈 Up 5% \\[ÅRSRAPPORT, p. [3](folio:cite/0/3), "
                           "[7](folio:cite/0/7)\\] and 🚀 [\\[отчёт, p. 2\\]](folio:cite/1/2)."));
    }

    void exportsListTheChatsDocuments() {
        ChatSession c = ChatSession::create();
        c.documents = {{QStringLiteral("/data/report.pdf"), QStringLiteral("ab"),
                        QStringLiteral("Annual Report"), 8, false, QStringLiteral("1-2")},
                       {QStringLiteral("/data/appendix.pdf"), QStringLiteral("cd"),
                        QStringLiteral("Appendix"), 3, false, QString()}};
        ChatMessage a;
        a.role = ChatMessage::Role::Assistant;
        a.text = QStringLiteral("See [doc 2, p. 3] and [doc 1, p. 5]; not [doc 2, p. 4].");
        c.messages = {a};
        ExportContext ctx;
        ctx.title = QStringLiteral("T");
        const QString md = transcriptToMarkdown(c, ctx);
        QVERIFY2(md.contains(QStringLiteral("1. **Annual Report** — 8 pages — `/data/report.pdf` "
                                            "— pinned pages: 1-2")),
                 qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("2. **Appendix** — 3 pages — `/data/appendix.pdf`")));
        const QString html = transcriptToHtml(c, ctx);
        QVERIFY2(html.contains(QStringLiteral("file:///data/appendix.pdf#page=3")),
                 qPrintable(html));
        QVERIFY(html.contains(QStringLiteral("file:///data/report.pdf#page=5")));
        QVERIFY(!html.contains(QStringLiteral("appendix.pdf#page=4")));
        const QJsonObject json = transcriptToJson(c, ctx);
        const QJsonArray docs = json.value(QStringLiteral("documents")).toArray();
        QCOMPARE(docs.size(), 2);
        QCOMPARE(docs[1].toObject().value(QStringLiteral("path")).toString(),
                 QStringLiteral("/data/appendix.pdf"));
    }

    void documentsBelongToTheChat() {
        QVERIFY2(QFile::exists(sample(QStringLiteral("sample-report.pdf"))), "no sample report");
        QVERIFY2(QFile::exists(demoModel()), "no demo model");
        const QString dir = folio::test::scratchDir(QStringLiteral("chat-documents-files"));
        const QString report = dir + QStringLiteral("/report.pdf");
        const QString appendix = dir + QStringLiteral("/appendix.pdf");
        QFile::remove(report);
        QVERIFY(QFile::copy(sample(QStringLiteral("sample-report.pdf")), report));
        writePdf(appendix, QStringLiteral("Appendix"), 3);
        QString chatId;
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.chatPane()->newChat();
            QCOMPARE(w.documentsPane()->documents().size(), 0);
            // Short answers: the prompts are what is measured here.
            GenerationSettings brief = w.chatPane()->currentChat().settings;
            brief.maxTokens = 4;
            w.chatPane()->setChatSettings(w.chatPane()->currentChat().systemPrompt, brief);
            w.openDocuments({report, appendix});
            w.openModel(demoModel());
            QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 60000);
            QTRY_VERIFY_WITH_TIMEOUT(w.modelReady(), 60000);
            const QList<ChatDocument> docs = w.chatPane()->currentChat().documents;
            QCOMPARE(docs.size(), 2);
            QCOMPARE(docs[0].path, report);
            QCOMPARE(docs[0].pageCount, 8);
            QCOMPARE(docs[0].fingerprint.size(), 64); // SHA-256 hex
            QCOMPARE(docs[1].pageCount, 3);
            QCOMPARE(docs[1].title, QStringLiteral("Appendix"));

            // Two documents: each citation opens its own document at its page.
            w.chatPane()->appendMessage(
                ChatMessage::Role::Assistant,
                QStringLiteral("Margin [doc 2, p. 3]; revenue [doc 1, p. 5]; none [doc 2, p. 7]; "
                               "`[doc 1, p. 2]`."));
            TranscriptView* view = w.chatPane()->transcript();
            QVERIFY(clickAnchor(view, QStringLiteral("folio:cite/1/3")));
            QTRY_COMPARE(w.documentsPane()->currentRow(), 1);
            QTRY_COMPARE(w.documentsPane()->previewPage(), 3);
            QVERIFY2(w.documentsPane()->pageLine().contains(QStringLiteral("Page 3 of 3")),
                     qPrintable(w.documentsPane()->pageLine()));
            QVERIFY(w.documentsPane()->pageLine().contains(QStringLiteral("cited: p. 3")));
            QVERIFY(clickAnchor(view, QStringLiteral("folio:cite/0/5")));
            QTRY_COMPARE(w.documentsPane()->currentRow(), 0);
            QTRY_COMPARE(w.documentsPane()->previewPage(), 5);
            QCOMPARE(
                folio::test::anchorPosition(view->document(), QStringLiteral("folio:cite/1/7")),
                -1); // the appendix has 3 pages
            QCOMPARE(
                folio::test::anchorPosition(view->document(), QStringLiteral("folio:cite/0/2")),
                -1); // code

            // With the report in the chat the prompt is large; removed (Delete), it is gone.
            qInfo("citations open their documents");
            QSignalSpy done(&w, &MainWindow::answerFinished);
            w.ask(QStringLiteral("What was revenue?"));
            QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 120000);
            const qint64 withReport = w.chatPane()->messages().last().stats.promptTokens;
            QVERIFY2(withReport > 800, qPrintable(QString::number(withReport)));
            auto* list = w.findChild<QListWidget*>(QStringLiteral("documentList"));
            list->setCurrentRow(0);
            list->setFocus();
            QTest::keyClick(list, Qt::Key_Delete);
            QCOMPARE(w.documentsPane()->documents().size(), 1);
            QCOMPARE(w.chatPane()->currentChat().documents.size(), 1);
            QCOMPARE(w.chatPane()->currentChat().documents[0].path, appendix);
            QCOMPARE(w.findChildren<QLabel*>(QStringLiteral("attachmentChip")).size(), 1);
            done.clear();
            w.ask(QStringLiteral("And now?"));
            QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 120000);
            const qint64 without = w.chatPane()->messages().last().stats.promptTokens;
            // The 8 report pages (~700 tokens of text) are out; the history is in.
            QVERIFY2(without < withReport - 500,
                     qPrintable(QStringLiteral("%1 vs %2").arg(without).arg(withReport)));

            qInfo("removed: %lld -> %lld prompt tokens", withReport, without);
            // A question asked while a document loads waits for it, then goes with it.
            done.clear();
            w.openDocuments({report});
            QVERIFY(w.documentsPane()->pendingLoads() > 0);
            w.ask(QStringLiteral("Revenue again?"));
            QVERIFY2(lastNotice(w).contains(QStringLiteral("Waiting for report.pdf")),
                     qPrintable(lastNotice(w)));
            QVERIFY(w.chatPane()->isWaiting());
            QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 120000);
            QVERIFY(!w.chatPane()->isWaiting());
            const qint64 after = w.chatPane()->messages().last().stats.promptTokens;
            QVERIFY2(after > without + 500,
                     qPrintable(QStringLiteral("%1 vs %2").arg(after).arg(without)));
            // The question waited above its notice, and went with the report.
            const auto& msgs = w.chatPane()->messages();
            QCOMPARE(msgs.at(msgs.size() - 2).text, QStringLiteral("Revenue again?"));
            QVERIFY(
                msgs.at(msgs.size() - 3).text.contains(QStringLiteral("Waited for report.pdf")));
            qInfo("waited: %lld prompt tokens", after);
            // Stop cancels a wait: nothing is sent.
            const QString firstChat = w.chatPane()->currentChat().id;
            w.chatPane()->newChat();
            QCOMPARE(w.documentsPane()->documents().size(), 0); // a new chat starts empty
            w.openDocuments({appendix});
            w.ask(QStringLiteral("Wait for me"));
            QVERIFY(w.chatPane()->isWaiting());
            QTest::mouseClick(w.findChild<QPushButton*>(QStringLiteral("stopButton")),
                              Qt::LeftButton);
            QVERIFY(!w.chatPane()->isWaiting());
            QVERIFY(lastNotice(w).contains(QStringLiteral("not sent")));
            QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 60000);
            QCOMPARE(w.chatPane()->messages().last().role, ChatMessage::Role::Notice);
            // The chip's × removes the document from the chat.
            const auto removers =
                w.findChildren<QToolButton*>(QStringLiteral("attachmentChipRemove"));
            QCOMPARE(removers.size(), 1);
            removers.first()->click();
            QCOMPARE(w.documentsPane()->documents().size(), 0);
            QCOMPARE(w.chatPane()->currentChat().documents.size(), 0);

            // Back to the first chat: its documents come back, reordered by Move up.
            selectChatById(w, firstChat);
            QTRY_COMPARE(w.documentsPane()->documents().size(), 2);
            w.documentsPane()->moveDocument(1, -1);
            QCOMPARE(w.chatPane()->currentChat().documents[0].path, report);
            QCOMPARE(w.chatPane()->currentChat().documents[1].path, appendix);
            chatId = w.chatPane()->currentChat().id;
            QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 60000);
            w.close();
            w.chatPane()->waitForSaves();
        }
        // The appendix goes missing while Folio is closed.
        const QString moved = dir + QStringLiteral("/moved-appendix.pdf");
        QFile::remove(moved);
        QVERIFY(QFile::rename(appendix, moved));

        MainWindow again;
        again.show();
        selectChatById(again, chatId);
        QCOMPARE(again.chatPane()->currentChat().id, chatId);
        QTRY_VERIFY_WITH_TIMEOUT(!again.isBusy(), 60000);
        const auto& docs = again.documentsPane()->documents();
        QCOMPARE(docs.size(), 2);
        QCOMPARE(docs[0].state, Document::State::Ready);
        QCOMPARE(docs[0].pageCount, 8);
        QCOMPARE(again.documentsPane()->problem(1), DocumentsPane::Problem::Missing);
        const QString banner = again.chatPane()->documentProblemsText();
        QVERIFY2(banner.contains(QStringLiteral("appendix.pdf is missing")), qPrintable(banner));
        QVERIFY(banner.contains(QStringLiteral("folio:locate/1")));
        // Located: the chat keeps the new path and the banner goes.
        again.documentsPane()->locateDocument(1, moved);
        QTRY_VERIFY_WITH_TIMEOUT(!again.isBusy(), 60000);
        QCOMPARE(again.documentsPane()->problem(1), DocumentsPane::Problem::None);
        QCOMPARE(again.chatPane()->currentChat().documents[1].path, moved);
        QCOMPARE(again.chatPane()->documentProblemsText(), QString());
        // A changed file is named too.
        QFile::remove(report);
        writePdf(report, QStringLiteral("Other"), 2);
        again.chatPane()->newChat();
        QCOMPARE(again.documentsPane()->documents().size(), 0);
        selectChatById(again, chatId);
        QTRY_VERIFY_WITH_TIMEOUT(!again.isBusy(), 60000);
        QCOMPARE(again.documentsPane()->problem(0), DocumentsPane::Problem::Changed);
        QVERIFY(again.chatPane()->documentProblemsText().contains(QStringLiteral("report.pdf has "
                                                                                 "changed")));
    }
};

QTEST_MAIN(TestChatDocuments)
#include "test_chat_documents.moc"
