// Versions of messages and undoable deletes (issue #25, "no lost work"): editing a question or
// regenerating an answer makes a sibling version ("‹ 2/2 ›" in the transcript, switched with
// its arrows), kept in the chat file (version 3) across a restart and exported as the chosen
// branch; a deleted chat goes to the trash and comes back with Undo. Driven through the real
// ChatPane, ChatController and EngineWorker, with a backend whose callbacks the test calls.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBlock>
#include <QtTest>

#include "backend/engine_worker.h"
#include "chat/chat_controller.h"
#include "chat/chat_pane.h"
#include "chat/transcript_view.h"
#include "core/chat/chat_json.h"
#include "core/chat/message_versions.h"
#include "core/export/export_chat.h"
#include "notifications/notification_area.h"
#include "support/test_support.h"

#include <memory>
#include <string>
#include <vector>

using namespace folio;
using namespace folio::ui;

namespace {

class HandBackend : public ChatBackend {
public:
    RequestId submit(Request r) override {
        requests.push_back(std::move(r));
        return RequestId(requests.size());
    }
    void cancel(RequestId) override {}
    void cancel_all() override {}
    void wait(RequestId) override {}
    ChatBackendStatus status() const override {
        ChatBackendStatus s;
        s.kind = "hand";
        return s;
    }
    std::vector<Request> requests;
};

RequestStats stats(const std::string& text) {
    RequestStats st;
    st.text = text;
    st.stop_reason = "eos";
    st.prompt_tokens = 10;
    st.generated_tokens = 2;
    return st;
}

QStringList contents(const Request& r) {
    QStringList out;
    for (const Message& m : r.messages)
        if (m.role != "system")
            out << QString::fromStdString(m.role + ": " + m.content);
    return out;
}

QStringList texts(const QList<ChatMessage>& messages) {
    QStringList out;
    for (const ChatMessage& m : messages)
        out << m.text;
    return out;
}

QStringList hrefs(const QTextDocument* doc) {
    QStringList out;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().isAnchor())
                out << it.fragment().charFormat().anchorHref();
    return out;
}

QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

ChatMessage message(ChatMessage::Role role, const QString& text) {
    ChatMessage m;
    m.role = role;
    m.text = text;
    m.time = QDateTime::currentDateTime();
    return m;
}

} // namespace

class TestChatVersions : public QObject {
    Q_OBJECT
    QString dir_;
    std::unique_ptr<ChatPane> pane_;
    std::unique_ptr<EngineWorker> worker_;
    std::unique_ptr<ChatController> controller_;
    HandBackend* backend_ = nullptr;

    // The user clicks a link of the transcript.
    void click(const QString& href) {
        QVERIFY2(hrefs(pane_->transcript()->document()).contains(href),
                 qPrintable(hrefs(pane_->transcript()->document()).join(QLatin1Char(' '))));
        Q_EMIT pane_->transcript()->anchorClicked(QUrl(href));
    }
    void answerLast(const std::string& text) {
        const RequestCallbacks cb = backend_->requests.back().callbacks;
        cb.on_token(text, -1);
        cb.on_done(stats(text));
        QVERIFY(!pane_->isGenerating());
    }

private slots:
    void initTestCase() { registerEngineTypes(); }

    void init() {
        dir_ = folio::test::scratchDir(QStringLiteral("chat-versions"));
        pane_ = std::make_unique<ChatPane>();
        pane_->openStore(dir_);
        worker_ = std::make_unique<EngineWorker>();
        controller_ = std::make_unique<ChatController>(
            pane_.get(), worker_.get(), [](const ChatSession&) { return QList<Document>(); });
        backend_ = new HandBackend;
        ModelFactsQ facts;
        facts.name = QStringLiteral("hand");
        facts.contextLimit = 8192;
        worker_->setBackend(std::unique_ptr<ChatBackend>(backend_), facts);
        pane_->setModelReady(true, QString());
        pane_->resize(900, 700);
        pane_->show();
    }

    void cleanup() {
        pane_->waitForSaves();
        controller_.reset();
        worker_.reset();
        pane_.reset();
    }

    // Edit → two versions of the question, both answers kept; switching back shows the old
    // branch (and the next question continues it); a restart keeps both and the chosen one.
    void editMakesASiblingVersion() {
        pane_->submitText(QStringLiteral("What was revenue?"));
        answerLast("4.5 bn");
        pane_->submitText(QStringLiteral("And profit?"));
        answerLast("0.9 bn");
        QCOMPARE(pane_->messages().size(), 4);

        // Edit the second question: nothing changes (or is saved) until it is sent.
        click(QStringLiteral("folio:edit/2"));
        QVERIFY(pane_->isEditing());
        auto* input = pane_->findChild<QPlainTextEdit*>(QStringLiteral("chatInput"));
        QCOMPARE(input->toPlainText(), QStringLiteral("And profit?"));
        QVERIFY(pane_->findChild<QWidget*>(QStringLiteral("editBar"))->isVisible());
        QCOMPARE(pane_->messages().size(), 4);
        input->setPlainText(QStringLiteral("And net profit in 2025?"));
        pane_->findChild<QPushButton*>(QStringLiteral("sendButton"))->click();
        QVERIFY(!pane_->isEditing());
        // The prompt is the new branch: the old question and its answer are not in it.
        QCOMPARE(contents(backend_->requests.back()),
                 (QStringList{QStringLiteral("user: What was revenue?"),
                              QStringLiteral("assistant: 4.5 bn"),
                              QStringLiteral("user: And net profit in 2025?")}));
        answerLast("1.1 bn");
        QCOMPARE(
            texts(pane_->messages()),
            (QStringList{QStringLiteral("What was revenue?"), QStringLiteral("4.5 bn"),
                         QStringLiteral("And net profit in 2025?"), QStringLiteral("1.1 bn")}));
        QCOMPARE(texts(pane_->currentChat().otherVersions),
                 (QStringList{QStringLiteral("And profit?"), QStringLiteral("0.9 bn")}));
        const VersionPosition v = versionOf(pane_->currentChat(), 2);
        QCOMPARE(v.index, 1);
        QCOMPARE(v.count, 2);
        QCOMPARE(versionOf(pane_->currentChat(), 0).count, 1);
        const QString shown = pane_->transcript()->toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("‹ 2/2 ›")), qPrintable(shown));

        // Back to the first version: the old question with its answer.
        click(QStringLiteral("folio:version/2/0"));
        QCOMPARE(texts(pane_->messages()),
                 (QStringList{QStringLiteral("What was revenue?"), QStringLiteral("4.5 bn"),
                              QStringLiteral("And profit?"), QStringLiteral("0.9 bn")}));
        QVERIFY(pane_->transcript()->toPlainText().contains(QStringLiteral("‹ 1/2 ›")));
        QVERIFY(
            hrefs(pane_->transcript()->document()).contains(QStringLiteral("folio:version/2/1")));
        pane_->waitForSaves();

        // A restart: both versions, the first one chosen.
        const QString id = pane_->currentChat().id;
        const QJsonObject file =
            readJson(dir_ + QStringLiteral("/") + id + QStringLiteral(".json"));
        QCOMPARE(file.value(QStringLiteral("version")).toInt(), 3);
        QCOMPARE(file.value(QStringLiteral("messages")).toArray().size(), 4);
        QCOMPARE(file.value(QStringLiteral("versions")).toArray().size(), 2);
        {
            ChatPane again;
            again.openStore(dir_);
            QCOMPARE(again.currentChat().id, id);
            QCOMPARE(texts(again.messages()).at(2), QStringLiteral("And profit?"));
            QCOMPARE(versionOf(again.currentChat(), 2).count, 2);
            again.showVersion(2, 1);
            QCOMPARE(texts(again.messages()).at(2), QStringLiteral("And net profit in 2025?"));
            QCOMPARE(texts(again.messages()).at(3), QStringLiteral("1.1 bn"));
            again.waitForSaves();
        }

        // The next question continues the branch shown (the first one here).
        pane_->submitText(QStringLiteral("Why?"));
        QCOMPARE(contents(backend_->requests.back()).mid(2, 2),
                 (QStringList{QStringLiteral("user: And profit?"),
                              QStringLiteral("assistant: 0.9 bn")}));
        answerLast("Costs.");

        // Cancelling an edit changes nothing.
        click(QStringLiteral("folio:edit/0"));
        pane_->findChild<QPushButton*>(QStringLiteral("cancelEditButton"))->click();
        QVERIFY(!pane_->isEditing());
        QCOMPARE(pane_->messages().size(), 6);
    }

    // Regenerate keeps the earlier answer as a version; an answer with nothing in it is not
    // kept.
    void regenerateKeepsTheEarlierAnswer() {
        pane_->submitText(QStringLiteral("Summarize page 3."));
        answerLast("First take.");
        click(QStringLiteral("folio:regenerate/1"));
        QVERIFY(pane_->isGenerating());
        QCOMPARE(contents(backend_->requests.back()),
                 QStringList{QStringLiteral("user: Summarize page 3.")});
        answerLast("Second take.");
        QCOMPARE(texts(pane_->messages()), (QStringList{QStringLiteral("Summarize page 3."),
                                                        QStringLiteral("Second take.")}));
        QCOMPARE(versionOf(pane_->currentChat(), 1).count, 2);
        QCOMPARE(versionOf(pane_->currentChat(), 1).index, 1);
        click(QStringLiteral("folio:version/1/0"));
        QCOMPARE(pane_->messages().last().text, QStringLiteral("First take."));
        QCOMPARE(pane_->messages().last().stats.stopReason, QStringLiteral("eos"));

        // An empty answer (e.g. stopped at once) is dropped when asked again.
        pane_->regenerate();
        const RequestCallbacks cb = backend_->requests.back().callbacks;
        cb.on_done(stats(std::string()));
        QCOMPARE(versionOf(pane_->currentChat(), 1).count, 3);
        pane_->regenerate();
        answerLast("Third take.");
        QCOMPARE(versionOf(pane_->currentChat(), 1).count, 3);
        QStringList all = texts(pane_->currentChat().otherVersions);
        all.sort();
        QCOMPARE(all, (QStringList{QStringLiteral("First take."), QStringLiteral("Second take.")}));
    }

    // Under a version, switching brings back the branch as it was last seen; the export is the
    // chosen branch only.
    void switchingRemembersTheBranchBelow() {
        ChatSession c = ChatSession::create();
        c.messages = {message(ChatMessage::Role::User, QStringLiteral("Q")),
                      message(ChatMessage::Role::Assistant, QStringLiteral("A1"))};
        linkMessages(c);
        const auto append = [&c](ChatMessage::Role role, const QString& text) {
            ChatMessage m = message(role, text);
            m.id = nextMessageId(c);
            m.parentId = c.messages.isEmpty() ? 0 : c.messages.last().id;
            c.messages.append(m);
        };
        branchAt(c, 1); // regenerate
        append(ChatMessage::Role::Assistant, QStringLiteral("A2"));
        QVERIFY(switchVersion(c, 1, 0)); // back to A1
        branchAt(c, 0);                  // edit Q
        append(ChatMessage::Role::User, QStringLiteral("Q edited"));
        append(ChatMessage::Role::Assistant, QStringLiteral("B"));
        QCOMPARE(versionOf(c, 0).count, 2);
        QVERIFY(switchVersion(c, 0, 0));
        // Q with A1 (chosen last under Q), not the newer A2.
        QCOMPARE(texts(c.messages), (QStringList{QStringLiteral("Q"), QStringLiteral("A1")}));
        QCOMPARE(versionOf(c, 1).index, 0);
        QVERIFY(!switchVersion(c, 1, 0)); // already shown
        QVERIFY(!switchVersion(c, 1, 5)); // no such version

        // Through the file and back: the same tree.
        ChatSession back;
        QString error;
        QVERIFY2(chatFromJson(chatToJson(c), back, &error), qPrintable(error));
        QCOMPARE(texts(back.messages), texts(c.messages));
        QCOMPARE(back.otherVersions.size(), 3);
        QVERIFY(switchVersion(back, 0, 1));
        QCOMPARE(texts(back.messages),
                 (QStringList{QStringLiteral("Q edited"), QStringLiteral("B")}));

        // Exports: the chosen branch.
        const QString out = folio::test::scratchDir(QStringLiteral("chat-versions-export"));
        ExportContext context;
        context.title = QStringLiteral("Versions");
        QCOMPARE(exportChat(out + QStringLiteral("/c.md"), c, context), QString());
        QFile md(out + QStringLiteral("/c.md"));
        QVERIFY(md.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(md.readAll());
        QVERIFY(text.contains(QStringLiteral("A1")));
        QVERIFY(!text.contains(QStringLiteral("A2")));
        QVERIFY(!text.contains(QStringLiteral("Q edited")));
        QCOMPARE(exportChat(out + QStringLiteral("/c.json"), c, context), QString());
        const QJsonObject json = readJson(out + QStringLiteral("/c.json"));
        QCOMPARE(json.value(QStringLiteral("messages")).toArray().size(), 2);
        QVERIFY(!json.contains(QStringLiteral("versions")));
    }

    // A version-2 file (no ids) reads as one branch, numbered in order.
    void version2FilesMigrate() {
        const QJsonObject v2 = QJsonDocument::fromJson(R"({"format": "folio-chat", "version": 2,
            "id": "v2", "title": "", "system_prompt": "", "settings": {}, "documents": [],
            "created": "2026-01-02T10:00:00.000", "updated": "2026-01-02T10:05:00.000",
            "messages": [
              {"role": "user", "text": "Q", "time": "2026-01-02T10:00:00.000"},
              {"role": "assistant", "text": "A", "time": "2026-01-02T10:00:09.000",
               "stats": {"prompt_tokens": 9, "stop_reason": "eos"}}]})")
                                   .object();
        ChatSession c;
        QString error;
        QVERIFY2(chatFromJson(v2, c, &error), qPrintable(error));
        QCOMPARE(c.messages.size(), 2);
        QCOMPARE(c.messages[0].id, 1);
        QCOMPARE(c.messages[0].parentId, 0);
        QCOMPARE(c.messages[1].id, 2);
        QCOMPARE(c.messages[1].parentId, 1);
        QVERIFY(c.otherVersions.isEmpty());
        const QJsonObject saved = chatToJson(c);
        QCOMPARE(saved.value(QStringLiteral("version")).toInt(), 3);
        QVERIFY(!saved.contains(QStringLiteral("versions")));
        QCOMPARE(saved.value(QStringLiteral("messages"))
                     .toArray()[1]
                     .toObject()
                     .value(QStringLiteral("parent")),
                 QJsonValue(1));
    }

    // Delete → the chat leaves the list and its file goes to the trash; Undo in the
    // notification area brings both back; old trash is emptied at start.
    // The number of earlier turns a question's prompt left out is kept as a number, so the
    // transcript's divider does not depend on the note's language; chats saved before the
    // field read it from their (then always English) note.
    void leftOutTurnsAreKeptAsANumber() {
        ChatSession chat = ChatSession::create();
        const auto add = [&chat](ChatMessage::Role role, const QString& text) {
            ChatMessage m;
            m.role = role;
            m.text = text;
            chat.messages.append(m);
        };
        add(ChatMessage::Role::User, QStringLiteral("First question"));
        add(ChatMessage::Role::Assistant, QStringLiteral("First answer."));
        add(ChatMessage::Role::User, QStringLiteral("Second question"));
        add(ChatMessage::Role::Assistant, QStringLiteral("Second answer."));
        add(ChatMessage::Role::User, QStringLiteral("Third question"));
        chat.messages.last().contextNote = QStringLiteral("省略了 2 个较早的对话");
        chat.messages.last().leftOutTurns = 2;

        ChatSession back;
        QString error;
        QVERIFY2(chatFromJson(chatToJson(chat), back, &error), qPrintable(error));
        QCOMPARE(back.messages.size(), 5);
        QCOMPARE(back.messages.last().leftOutTurns, 2);
        QCOMPARE(back.messages.last().contextNote, chat.messages.last().contextNote);
        QCOMPARE(back.messages.first().leftOutTurns, 0);

        QJsonObject legacy = chatToJson(chat);
        QJsonArray messages = legacy.value(QStringLiteral("messages")).toArray();
        QCOMPARE(messages.size(), 5);
        QJsonObject last = messages.last().toObject();
        QVERIFY(last.contains(QStringLiteral("left_out_turns")));
        last.remove(QStringLiteral("left_out_turns"));
        last.insert(QStringLiteral("context"),
                    QStringLiteral("pages 1–4 of 9 · 3 earlier turns left out"));
        messages.replace(4, last);
        legacy.insert(QStringLiteral("messages"), messages);
        QVERIFY2(chatFromJson(legacy, back, &error), qPrintable(error));
        QCOMPARE(back.messages.last().leftOutTurns, 3);

        // The divider goes after the first two turns (question and answer), before the second
        // question, whatever the note says.
        TranscriptView view;
        view.showMessages(chat.messages, false);
        const QString text = view.document()->toPlainText();
        const qsizetype divider = text.indexOf(QStringLiteral("were not in the prompt of"));
        QVERIFY2(divider > 0, qPrintable(text));
        QVERIFY(text.indexOf(QStringLiteral("First answer.")) < divider);
        QVERIFY(divider < text.indexOf(QStringLiteral("Second question")));
        QVERIFY(text.mid(divider).contains(QStringLiteral("Third question")));
        chat.messages.last().leftOutTurns = 0;
        view.showMessages(chat.messages, false);
        QVERIFY(
            !view.document()->toPlainText().contains(QStringLiteral("were not in the prompt of")));
    }

    void deletingAChatCanBeUndone() {
        pane_->submitText(QStringLiteral("Keep me"));
        answerLast("Kept.");
        const QString keptId = pane_->currentChat().id;
        pane_->newChat();
        pane_->submitText(QStringLiteral("Other chat"));
        answerLast("Other.");
        pane_->waitForSaves();
        QCOMPARE(pane_->chats().size(), 2);
        const int index = pane_->chats()[0].id == keptId ? 0 : 1;
        const QString file = dir_ + QStringLiteral("/") + keptId + QStringLiteral(".json");
        QVERIFY(QFile::exists(file));

        pane_->deleteChat(index);
        QCOMPARE(pane_->chats().size(), 1);
        QVERIFY(!QFile::exists(file));
        const QString trashed = dir_ + QStringLiteral("/trash/") + keptId + QStringLiteral(".json");
        QVERIFY(QFile::exists(trashed));
        auto* area = pane_->notifications();
        QCOMPARE(area->count(), 1);
        QVERIFY2(area->texts().first().contains(QStringLiteral("Keep me")),
                 qPrintable(area->texts().first()));
        QVERIFY(area->isVisible());
        {
            ChatPane meanwhile; // a restart now would not show it
            meanwhile.openStore(dir_);
            QCOMPARE(meanwhile.chats().size(), 1);
        }

        auto* undo = area->findChild<QPushButton*>(QStringLiteral("notificationAction"));
        QVERIFY(undo);
        QCOMPARE(undo->text(), QStringLiteral("Undo"));
        undo->click();
        QCOMPARE(pane_->chats().size(), 2);
        QCOMPARE(pane_->chats()[index].id, keptId);
        QCOMPARE(pane_->currentChat().id, keptId);
        QCOMPARE(texts(pane_->messages()),
                 (QStringList{QStringLiteral("Keep me"), QStringLiteral("Kept.")}));
        QVERIFY(QFile::exists(file));
        QVERIFY(!QFile::exists(trashed));
        QTRY_COMPARE(area->count(), 0);
        QVERIFY(!pane_->undoDelete()); // nothing more to undo
        {
            ChatPane again;
            again.openStore(dir_);
            QCOMPARE(again.chats().size(), 2);
        }

        // Undo while another chat is being answered: it comes back beside it, and the answer
        // stays with its chat.
        pane_->deleteChat(index);
        const QString otherId = pane_->currentChat().id;
        pane_->submitText(QStringLiteral("Busy question"));
        QVERIFY(pane_->isGenerating());
        QVERIFY(pane_->undoDelete());
        QCOMPARE(pane_->chats().size(), 2);
        QCOMPARE(pane_->currentChat().id, otherId);
        answerLast("Busy answer.");
        QCOMPARE(pane_->messages().last().text, QStringLiteral("Busy answer."));
        QCOMPARE(pane_->chats()[index].id, keptId);
        QCOMPARE(pane_->chats()[index].messages.size(), 2);
        QVERIFY(QFile::exists(file));

        // The only chat deleted and brought back: no empty chat is left beside it.
        pane_->deleteChat(1 - index);
        pane_->deleteChat(0);
        QCOMPARE(pane_->chats().size(), 1);
        QVERIFY(pane_->messages().isEmpty());
        QVERIFY(pane_->undoDelete());
        QCOMPARE(pane_->chats().size(), 1);
        QCOMPARE(pane_->currentChat().id, keptId);

        // Chats in the trash for longer than kTrashDays are removed at start.
        pane_->waitForSaves();
        ChatStore store(dir_);
        QVERIFY(store.moveToTrash(keptId));
        QFile old(trashed);
        QVERIFY(old.open(QIODevice::ReadWrite));
        QVERIFY(old.setFileTime(QDateTime::currentDateTime().addDays(-ChatStore::kTrashDays - 1),
                                QFileDevice::FileModificationTime));
        old.close();
        store.emptyTrash(ChatStore::kTrashDays);
        QVERIFY(!QFile::exists(trashed));
    }
};

QTEST_MAIN(TestChatVersions)
#include "test_chat_versions.moc"
