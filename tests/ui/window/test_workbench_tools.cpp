// Tool calls in the chat (issue #13), through the real MainWindow, ChatPane, EngineWorker and
// AgentTurnRunner, with a scripted model behind the ChatBackend interface (a test double for the
// model's text only: the requests it receives are the real ones, rendered by the worker) and a
// real SQLite file made here: the chat ends with the call, its result rows and the final answer;
// the tool block is collapsed until clicked; tools off sends no tools_json; the chat JSON, the
// chat store and the Markdown export keep data sources, calls and results; hostile SQL from the
// "model" is refused in the result block and the file is unchanged; a data source that went
// missing is named when the chat loads and when a turn needs it.
#include <QCheckBox>
#include <QCryptographicHash>
#include <QJsonDocument>
#include <QLabel>
#include <QTextBlock>
#include <QtTest>

#include "backend/engine_worker.h"
#include "chat/chat_pane.h"
#include "chat/data_sources_bar.h"
#include "chat/transcript_view.h"
#include "core/chat/chat_json.h"
#include "core/chat/chat_store.h"
#include "core/export/transcript_export.h"
#include "main_window.h"
#include "support/finance_db.h"
#include "support/test_support.h"
#include "ui/transcript_probe.h"
#include "ui/window_fixture.h"

#include <sqlite3.h>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

using namespace folio;
using namespace folio::ui;

namespace {

const char* const kHold = "<hold until cancelled>";
const char* const kQuery = "SELECT year, sum(amount) AS total FROM revenue GROUP BY year";

std::string toolCall(const std::string& sql) {
    return "Let me look at the data.<|tool_calls_section_begin|><|tool_call_begin|>"
           "functions.sql_query:0<|tool_call_argument_begin|>{\"query\": \"" +
           sql + "\"}<|tool_call_end|><|tool_calls_section_end|>";
}

// A ChatBackend whose answers come from a script; it keeps every request it receives and
// streams each answer in a few pieces from a thread of its own, as real backends do.
class ScriptedBackend : public ChatBackend {
public:
    using Script = std::function<std::string(const Request&)>;
    explicit ScriptedBackend(Script script) : script_(std::move(script)) {}
    ~ScriptedBackend() override {
        for (auto& t : threads_)
            t.join();
    }

    RequestId submit(Request r) override {
        std::lock_guard lk(m_);
        const RequestId id = next_++;
        requests_.push_back(r);
        threads_.emplace_back([this, id, r = std::move(r)] {
            const std::string answer = script_(r);
            if (answer == kHold) { // streams a little, then waits for Stop
                r.callbacks.on_token("Thinking", -1);
                std::unique_lock lk(m_);
                cv_.wait(lk, [&] { return cancelled_; });
                lk.unlock();
                RequestStats st;
                st.text = "Thinking";
                st.stop_reason = "cancelled";
                r.callbacks.on_done(st);
                lk.lock();
                done_.push_back(id);
                cv_.notify_all();
                return;
            }
            RequestStats st;
            st.prompt_tokens = int64_t(r.messages.size()) * 10;
            for (size_t at = 0; at < answer.size(); at += 24) {
                r.callbacks.on_token(std::string_view(answer).substr(at, 24), -1);
                ++st.generated_tokens;
            }
            st.text = answer;
            st.stop_reason = "eos";
            st.ttft_ms = 1;
            r.callbacks.on_done(st);
            std::lock_guard lk(m_);
            done_.push_back(id);
            cv_.notify_all();
        });
        return id;
    }
    void cancel(RequestId) override {
        std::lock_guard lk(m_);
        cancelled_ = true;
        cv_.notify_all();
    }
    void cancel_all() override { cancel(0); }
    void wait(RequestId id) override {
        std::unique_lock lk(m_);
        cv_.wait(lk, [&] { return std::find(done_.begin(), done_.end(), id) != done_.end(); });
    }
    ChatBackendStatus status() const override {
        ChatBackendStatus s;
        s.kind = "scripted";
        return s;
    }
    std::vector<Request> requests() const {
        std::lock_guard lk(m_);
        return requests_;
    }

private:
    Script script_;
    mutable std::mutex m_;
    std::condition_variable cv_;
    std::vector<Request> requests_;
    std::vector<RequestId> done_;
    std::vector<std::thread> threads_;
    RequestId next_ = 1;
    bool cancelled_ = false;
};

// The model: without tools it answers plainly; with tools it first calls sql_query with `sql`,
// then answers from the tool's result.
ScriptedBackend::Script analyst(const std::string& sql) {
    return [sql](const Request& r) -> std::string {
        if (r.tools_json.empty())
            return "Plain answer without tools.";
        const Message& last = r.messages.back();
        if (last.role != "tool")
            return toolCall(sql);
        if (last.content.find("error:") != std::string::npos)
            return "I cannot change the data.";
        return last.content.find("220.25") != std::string::npos
                   ? "Revenue peaked in 2023 at 220.25."
                   : "I could not read the table.";
    };
}

} // namespace

class TestWorkbenchTools : public QObject {
    Q_OBJECT
    QString db_;
    std::unique_ptr<MainWindow> window_;
    ScriptedBackend* backend_ = nullptr; // owned by the worker
    QStringList events_;

    // Puts a scripted backend behind the main window's worker (on the worker's thread).
    void useScript(ScriptedBackend::Script script) {
        backend_ = new ScriptedBackend(std::move(script));
        folio::test::useWindowBackend(*window_, backend_, folio::test::scriptedFacts());
    }

    void askAndWait(const QString& question) {
        QSignalSpy finished(window_.get(), &MainWindow::answerFinished);
        window_->ask(question);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        window_->chatPane()->transcript()->flush();
    }

private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("workbench-tools-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_workbench_tools"));
        db_ = folio::test::makeFinanceDatabase(
            folio::test::scratchDir(QStringLiteral("workbench-tools-data")));
        QCOMPARE(folio::test::financeRowCount(db_), 5);
        window_ = std::make_unique<MainWindow>();
        window_->resize(1500, 900);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        EngineWorker* worker = window_->engineWorker();
        connect(worker, &EngineWorker::toolCallStarted, this,
                [this](qint64, int i, const ToolCallRecord& c) {
                    events_ << QStringLiteral("call %1 %2").arg(i).arg(c.query());
                });
        connect(worker, &EngineWorker::toolCallFinished, this,
                [this](qint64, int i, const ToolCallRecord& c) {
                    events_ << QStringLiteral("result %1 %2").arg(i).arg(c.ok ? "ok" : "refused");
                });
        connect(worker, &EngineWorker::finished, this, [this](qint64, const RequestStatsQ& s) {
            events_ << QStringLiteral("finished ") + s.stopReason;
        });
    }

    void cleanupTestCase() {
        window_->chatPane()->waitForSaves();
        window_.reset();
    }

    void toolCallResultAndAnswerInTheChat() {
        useScript(analyst(kQuery));
        ChatPane* chat = window_->chatPane();
        chat->newChat();
        QVERIFY(!chat->dataSourcesBar()->toolsCheck()->isEnabled()); // nothing attached yet
        chat->dataSourcesBar()->attachDatabase(db_);
        QCOMPARE(chat->currentChat().dataSources, QStringList{db_});
        QVERIFY(chat->currentChat().toolsEnabled); // on by default once data is attached
        QVERIFY(chat->dataSourcesBar()->toolsCheck()->isChecked());
        QVERIFY(chat->dataSourcesBar()->summary().contains(QStringLiteral("finance.db")));
        events_.clear();

        askAndWait(QStringLiteral("How did revenue develop by year?"));
        const ChatMessage answer = chat->messages().last();
        QCOMPARE(answer.role, ChatMessage::Role::Assistant);
        QCOMPARE(answer.text, QStringLiteral("Revenue peaked in 2023 at 220.25."));
        QCOMPARE(answer.toolCalls.size(), 1);
        const ToolCallRecord call = answer.toolCalls.first();
        QCOMPARE(call.name, QStringLiteral("sql_query"));
        QCOMPARE(call.query(), QString::fromLatin1(kQuery));
        QVERIFY(call.done && call.ok);
        for (const char* cell : {"2022", "200.5", "2023", "220.25", "2024", "190"})
            QVERIFY2(call.result.contains(QLatin1String(cell)), qPrintable(call.result));
        QCOMPARE(resultRows(call.result), 3);
        // The call is shown before its result, both before the answer is complete.
        QCOMPARE(events_,
                 (QStringList{QStringLiteral("call 0 ") + QString::fromLatin1(kQuery),
                              QStringLiteral("result 0 ok"), QStringLiteral("finished eos")}));

        // What went to the model: the SQL tool's declaration (with the schema) both times, and
        // the call and its result in the second round.
        const std::vector<Request> sent = backend_->requests();
        QCOMPARE(sent.size(), size_t(2));
        for (const Request& r : sent) {
            QVERIFY(QString::fromStdString(r.tools_json).contains(QStringLiteral("sql_query")));
            QVERIFY(QString::fromStdString(r.tools_json)
                        .contains(QStringLiteral("CREATE TABLE revenue")));
        }
        const auto& second = sent[1].messages;
        QCOMPARE(second.at(second.size() - 2).role, std::string("assistant"));
        QCOMPARE(second.at(second.size() - 2).tool_calls.size(), size_t(1));
        QCOMPARE(second.back().role, std::string("tool"));

        // The block is collapsed (one line with the SQL) until its line is clicked.
        TranscriptView* view = chat->transcript();
        const int index = int(chat->messages().size()) - 1;
        const QString href = QStringLiteral("folio:tool/%1/0").arg(index);
        QVERIFY(view->toPlainText().contains(QStringLiteral("Tool call sql_query")));
        QVERIFY(view->toPlainText().contains(QStringLiteral("3 rows")));
        QVERIFY(!view->toPlainText().contains(QStringLiteral("200.5")));
        QVERIFY(!view->isToolCallExpanded(index, 0));
        const int at = folio::test::anchorPosition(view->document(), href);
        QVERIFY(at >= 0);
        QTextCursor c(view->document());
        c.setPosition(at + 2);
        const QPoint p = view->cursorRect(c).center();
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, p);
        QTRY_VERIFY(view->isToolCallExpanded(index, 0));
        QVERIFY(view->toPlainText().contains(QString::fromLatin1(kQuery)));
        QVERIFY(view->toPlainText().contains(QStringLiteral("200.5")));
        QVERIFY(view->toPlainText().contains(QStringLiteral("220.25")));
        if (const QString shots = qEnvironmentVariable("FOLIO_SHOTS_DIR"); !shots.isEmpty())
            QVERIFY(window_->grab().save(shots + QStringLiteral("/chat-tool-call.png")));
        c.setPosition(folio::test::anchorPosition(view->document(), href) + 2);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->cursorRect(c).center());
        QTRY_VERIFY(!view->isToolCallExpanded(index, 0));
        QVERIFY(!view->toPlainText().contains(QStringLiteral("200.5")));

        // Saved with the chat: JSON round trip, and the store's file read back.
        const ChatSession saved = chat->currentChat();
        ChatSession back;
        QString error;
        QVERIFY(chatFromJson(
            QJsonDocument::fromJson(QJsonDocument(chatToJson(saved)).toJson()).object(), back,
            &error));
        QCOMPARE(back.dataSources, QStringList{db_});
        QVERIFY(back.toolsEnabled);
        const ToolCallRecord r = back.messages.last().toolCalls.value(0);
        QCOMPARE(r.id, call.id);
        QCOMPARE(r.arguments, call.arguments);
        QCOMPARE(r.result, call.result);
        QVERIFY(r.ok && r.done);
        QCOMPARE(back.messages.last().text, answer.text);
        chat->waitForSaves();
        ChatStore store(ChatStore::defaultDir());
        bool found = false;
        for (const ChatSession& s : store.loadAll(nullptr)) {
            if (s.id != saved.id)
                continue;
            found = true;
            QCOMPARE(s.dataSources, QStringList{db_});
            QCOMPARE(s.messages.last().toolCalls.size(), 1);
            QCOMPARE(s.messages.last().toolCalls.first().result, call.result);
        }
        QVERIFY(found);

        // Markdown export: the SQL as a code block, the result as a table, then the answer.
        const QString md = transcriptToMarkdown(saved, ExportContext{});
        const qsizetype sqlAt =
            md.indexOf(QStringLiteral("```sql\n") + QString::fromLatin1(kQuery));
        const qsizetype tableAt = md.indexOf(QStringLiteral("| year | total |"));
        const qsizetype answerAt = md.indexOf(QStringLiteral("Revenue peaked in 2023"));
        QVERIFY2(sqlAt > 0 && tableAt > sqlAt && answerAt > tableAt, qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("| 2023 | 220.25 |")));
        QVERIFY(transcriptToHtml(saved, ExportContext{}).contains(QStringLiteral("220.25")));
    }

    void toolsOffSendsNoToolDeclaration() {
        useScript(analyst(kQuery));
        ChatPane* chat = window_->chatPane();
        chat->newChat();
        chat->dataSourcesBar()->attachDatabase(db_);
        chat->dataSourcesBar()->toolsCheck()->setChecked(false);
        QVERIFY(!chat->currentChat().toolsEnabled);
        QCOMPARE(chat->currentChat().dataSources, QStringList{db_}); // still attached
        askAndWait(QStringLiteral("Anything?"));
        const std::vector<Request> sent = backend_->requests();
        QCOMPARE(sent.size(), size_t(1));
        QVERIFY(sent[0].tools_json.empty());
        QCOMPARE(chat->messages().last().text, QStringLiteral("Plain answer without tools."));
        QVERIFY(chat->messages().last().toolCalls.isEmpty());
        ChatSession back;
        QVERIFY(chatFromJson(chatToJson(chat->currentChat()), back, nullptr));
        QVERIFY(!back.toolsEnabled);
        QCOMPARE(back.dataSources, QStringList{db_});
    }

    void hostileSqlIsRefusedAndTheFileUnchanged() {
        const QByteArray before = folio::test::fileDigest(db_);
        ChatPane* chat = window_->chatPane();
        for (const char* hostile :
             {"DROP TABLE revenue", "DELETE FROM revenue", "SELECT 1; DROP TABLE revenue",
              "ATTACH DATABASE 'x.db' AS x"}) {
            useScript(analyst(hostile));
            chat->newChat();
            chat->dataSourcesBar()->attachDatabase(db_);
            askAndWait(QStringLiteral("Clean up the data."));
            const ChatMessage answer = chat->messages().last();
            QCOMPARE(answer.toolCalls.size(), 1);
            const ToolCallRecord call = answer.toolCalls.first();
            QVERIFY(call.done);
            QVERIFY2(!call.ok, hostile);
            QVERIFY2(call.result.startsWith(QStringLiteral("error: ")), qPrintable(call.result));
            QCOMPARE(answer.text, QStringLiteral("I cannot change the data."));
            const int index = int(chat->messages().size()) - 1;
            QVERIFY(
                chat->transcript()->toPlainText().contains(QStringLiteral("refused or failed")));
            chat->transcript()->setToolCallExpanded(index, 0, true);
            QVERIFY(chat->transcript()->toPlainText().contains(call.result));
        }
        QCOMPARE(folio::test::fileDigest(db_), before);
        QCOMPARE(folio::test::financeRowCount(db_), 5);
    }

    // CSV files as data sources; a long result is cut to a readable size in the block (the
    // model still got every row the tool returned).
    void csvSourcesAndLongResultsAreCut() {
        const QString dir = folio::test::scratchDir(QStringLiteral("workbench-tools-csv"));
        {
            QFile big(dir + QStringLiteral("/big.csv"));
            QVERIFY(big.open(QIODevice::WriteOnly));
            big.write("n,label\n");
            for (int i = 1; i <= 40; ++i)
                big.write(QStringLiteral("%1,%2\n")
                              .arg(i)
                              .arg(i == 1 ? QString(150, QLatin1Char('x')) : QStringLiteral("row"))
                              .toUtf8());
            QFile small(dir + QStringLiteral("/small.csv"));
            QVERIFY(small.open(QIODevice::WriteOnly));
            small.write("k\n1\n");
        }
        useScript(analyst("SELECT n, label FROM big ORDER BY n"));
        ChatPane* chat = window_->chatPane();
        chat->newChat();
        chat->dataSourcesBar()->attachCsvFiles({dir + QStringLiteral("/big.csv")});
        chat->dataSourcesBar()->attachCsvFiles({dir + QStringLiteral("/small.csv")});
        QCOMPARE(chat->currentChat().dataSources.size(), 2);
        askAndWait(QStringLiteral("List them."));
        const ToolCallRecord call = chat->messages().last().toolCalls.value(0);
        QVERIFY2(call.ok, qPrintable(call.result));
        QCOMPARE(resultRows(call.result), 40);
        QVERIFY(QString::fromStdString(backend_->requests().back().messages.back().content)
                    .contains(QStringLiteral("| 40 | row |")));
        const int index = int(chat->messages().size()) - 1;
        chat->transcript()->setToolCallExpanded(index, 0, true);
        const QString shown = chat->transcript()->toPlainText();
        QVERIFY(shown.contains(QStringLiteral("… 28 more rows not shown")));
        QVERIFY(!shown.contains(QString(150, QLatin1Char('x'))));
        QVERIFY(shown.contains(QString(59, QLatin1Char('x')) + QStringLiteral("…")));
        // A SQLite file replaces CSV files (one tool reads one kind).
        chat->dataSourcesBar()->attachDatabase(db_);
        QCOMPARE(chat->currentChat().dataSources, QStringList{db_});
    }

    // Stop reaches a tool-using turn in its second round (the worker's thread is not blocked by
    // the turn); the call made so far stays in the chat.
    void stopEndsAToolTurn() {
        auto script = analyst(kQuery);
        useScript([script](const Request& r) -> std::string {
            return r.messages.back().role == "tool" ? std::string(kHold) : script(r);
        });
        ChatPane* chat = window_->chatPane();
        chat->newChat();
        chat->dataSourcesBar()->attachDatabase(db_);
        QSignalSpy finished(window_.get(), &MainWindow::answerFinished);
        QSignalSpy streamed(chat, &ChatPane::streamed);
        window_->ask(QStringLiteral("Take your time."));
        QTRY_VERIFY_WITH_TIMEOUT(backend_->requests().size() == 2 && !streamed.isEmpty() &&
                                     chat->messages().last().text == QStringLiteral("Thinking"),
                                 10000);
        QVERIFY(chat->isGenerating());
        QElapsedTimer t;
        t.start();
        Q_EMIT chat->stopRequested(chat->currentChat().id);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
        QVERIFY(t.elapsed() < 2000);
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("cancelled"));
        const ChatMessage answer = chat->messages().last();
        QCOMPARE(answer.toolCalls.size(), 1);
        QVERIFY(answer.toolCalls.first().ok);
        QCOMPARE(answer.text, QStringLiteral("Thinking"));
        QVERIFY(!chat->isGenerating());
    }

    // Data sources of a chat without messages yet survive a restart too.
    void dataSourcesOfANewChatAreSaved() {
        ChatPane* chat = window_->chatPane();
        chat->newChat();
        chat->dataSourcesBar()->attachDatabase(db_);
        const QString id = chat->currentChat().id;
        chat->waitForSaves();
        ChatPane reopened;
        reopened.openStore(ChatStore::defaultDir());
        bool found = false;
        for (const ChatSession& c : reopened.chats())
            found = found || (c.id == id && c.dataSources == QStringList{db_} && c.toolsEnabled);
        QVERIFY(found);
    }

    void missingDataSourceIsNamedAndTheChatStillLoads() {
        const QString dir = folio::test::scratchDir(QStringLiteral("workbench-tools-missing"));
        const QString gone = dir + QStringLiteral("/moved-away.db");
        ChatSession c = ChatSession::create();
        c.dataSources = {gone};
        ChatMessage q;
        q.role = ChatMessage::Role::User;
        q.text = QStringLiteral("What is in the table?");
        q.time = QDateTime::currentDateTime();
        c.messages = {q};
        {
            ChatStore store(dir + QStringLiteral("/chats"));
            store.saveAsync(c, this, [](const QString&) {});
            store.waitForSaves();
        }
        ChatPane pane;
        QStringList errors;
        errors = pane.openStore(dir + QStringLiteral("/chats"));
        QVERIFY(errors.isEmpty());
        QCOMPARE(pane.currentChat().id, c.id);
        QCOMPARE(pane.messages().size(), 1);
        QCOMPARE(pane.dataSourcesBar()->missingFiles(), QStringList{gone});
        QVERIFY2(pane.dataSourcesBar()->summary().contains(QStringLiteral("not found")),
                 qPrintable(pane.dataSourcesBar()->summary()));

        // A turn that needs it says so in the chat.
        useScript(analyst(kQuery));
        ChatPane* chat = window_->chatPane();
        chat->newChat();
        chat->setDataSources({gone}, true);
        askAndWait(QStringLiteral("Query it."));
        bool told = false;
        for (const ChatMessage& m : chat->messages())
            told = told || (m.role == ChatMessage::Role::Assistant &&
                            m.interrupted.contains(QStringLiteral("cannot be opened")) &&
                            m.interrupted.contains(QStringLiteral("moved-away.db")));
        QVERIFY(told);
        QVERIFY(backend_->requests().empty()); // nothing went to the model
    }
};

QTEST_MAIN(TestWorkbenchTools)
#include "test_workbench_tools.moc"
