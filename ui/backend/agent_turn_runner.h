#pragma once
// Runs one tool-using turn (folio::run_agent_turn) on a thread of its own: every round's answer
// comes from a ChatBackend (the embedded engine or a remote server), the read-only SQL tool runs
// over the chat's data sources (one SQLite file, or CSV files), and what happens is reported as
// it happens through the sinks (which run on the runner's thread). Not a QObject: EngineWorker
// turns the sinks into queued signals.

#include "core/chat/tool_call_record.h"
#include "folio/agent.h"
#include "folio/chat_backend.h"

#include <QStringList>

#include <atomic>
#include <functional>
#include <mutex>
#include <string_view>
#include <thread>

namespace folio::ui {

struct AgentSinks {
    std::function<void(std::string_view text)> token;
    // A round ended with tool calls: the text streamed for it was the call, not the answer.
    std::function<void()> reset;
    std::function<void(int index, const ToolCallRecord& call)> callStarted;
    std::function<void(int index, const ToolCallRecord& call)> callFinished;
    // Exactly once, last. stats.text is the final answer; `error` is "" unless it failed (then
    // userErrorText's sentence and details).
    std::function<void(const RequestStats& stats, const QString& error)> done;
};

class AgentTurnRunner {
public:
    static constexpr int kMaxRounds = 4;

    // `backend` must outlive the runner. The request's callbacks are replaced per round.
    AgentTurnRunner(ChatBackend& backend, Request request, QStringList dataSources,
                    AgentSinks sinks);
    ~AgentTurnRunner(); // cancels and joins

    void start();
    // Stops the round that runs (its backend request is cancelled) and the turn.
    void cancel();

private:
    void run();
    Expected<std::string> generate(const std::vector<Message>& messages, const std::string& tools);
    void reportResults(const std::vector<Message>& messages);

    ChatBackend& backend_;
    Request request_;
    QStringList sources_;
    AgentSinks sinks_;
    std::thread thread_;
    std::atomic<bool> cancelled_{false};
    std::mutex m_;
    RequestId current_ = -1; // the backend request of the running round (guarded by m_)
    // Touched on the runner's thread only.
    QList<ToolCallRecord> calls_;
    int reported_ = 0;
    int rounds_ = 0;
    RequestStats total_;
};

// The SQL tool over a chat's data sources: CSV files (every path ends in .csv) become tables of
// an in-memory database; anything else is opened as one SQLite file.
Expected<SqlTool> openDataSources(const QStringList& paths);

} // namespace folio::ui
