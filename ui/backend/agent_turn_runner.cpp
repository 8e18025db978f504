#include "backend/agent_turn_runner.h"
#include "backend/user_error.h"

#include <condition_variable>
#include <memory>
#include <optional>

namespace folio::ui {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// A tool message is "## Return of <id>\n<result>" (run_agent_turn).
QString resultOf(const Message& toolMessage) {
    const QString text = q(toolMessage.content);
    const qsizetype nl = text.indexOf(QLatin1Char('\n'));
    return nl < 0 ? text : text.mid(nl + 1);
}

} // namespace

Expected<SqlTool> openDataSources(const QStringList& paths) {
    if (paths.isEmpty())
        return make_error(ErrorCode::InvalidArgument, "no data source is attached");
    bool allCsv = true;
    for (const QString& p : paths)
        allCsv = allCsv && p.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
    if (allCsv) {
        std::vector<std::string> files;
        for (const QString& p : paths)
            files.push_back(p.toStdString());
        return SqlTool::open_csv(files);
    }
    if (paths.size() > 1)
        return make_error(ErrorCode::InvalidArgument,
                          "attach either one SQLite database or CSV files, not both");
    return SqlTool::open_sqlite(paths.first().toStdString());
}

AgentTurnRunner::AgentTurnRunner(ChatBackend& backend, Request request, QStringList dataSources,
                                 AgentSinks sinks)
    : backend_(backend), request_(std::move(request)), sources_(std::move(dataSources)),
      sinks_(std::move(sinks)) {}

AgentTurnRunner::~AgentTurnRunner() {
    cancel();
    if (thread_.joinable())
        thread_.join();
}

void AgentTurnRunner::start() {
    thread_ = std::thread([this] { run(); });
}

void AgentTurnRunner::cancel() {
    cancelled_ = true;
    std::lock_guard lk(m_);
    if (current_ >= 0)
        backend_.cancel(current_);
}

void AgentTurnRunner::run() {
    RequestStats out;
    auto sql = openDataSources(sources_);
    if (!sql) {
        out.stop_reason = "error";
        Error e = sql.error();
        e.message = "the data source cannot be opened: " + e.message;
        sinks_.done(out, userErrorText(e));
        return;
    }
    auto turn = run_agent_turn(
        [this](const std::vector<Message>& m, const std::string& t) { return generate(m, t); },
        request_.messages, *sql, kMaxRounds);
    out = total_;
    if (!turn) {
        const bool stopped = cancelled_ || turn.error().code == ErrorCode::Cancelled;
        out.stop_reason = stopped ? "cancelled" : "error";
        out.text = parse_tool_calls(total_.text).content; // the answer so far
        sinks_.done(out, stopped ? QString() : userErrorText(turn.error()));
        return;
    }
    // Results of the last round's calls have not been seen by a generate call.
    for (int k = reported_; k < int(turn->rounds.size()) && k < calls_.size(); ++k) {
        calls_[k].result = q(turn->rounds[size_t(k)].result);
        calls_[k].ok = turn->rounds[size_t(k)].ok;
        calls_[k].done = true;
        sinks_.callFinished(k, calls_[k]);
    }
    out.text = turn->answer;
    sinks_.done(out, {});
}

void AgentTurnRunner::reportResults(const std::vector<Message>& messages) {
    int k = 0;
    for (const Message& m : messages) {
        if (m.role != "tool")
            continue;
        if (k >= reported_ && k < calls_.size()) {
            calls_[k].result = resultOf(m);
            calls_[k].ok = !calls_[k].result.startsWith(QLatin1String("error: "));
            calls_[k].done = true;
            sinks_.callFinished(k, calls_[k]);
            reported_ = k + 1;
        }
        ++k;
    }
}

Expected<std::string> AgentTurnRunner::generate(const std::vector<Message>& messages,
                                                const std::string& tools) {
    reportResults(messages);
    const int round = rounds_++;
    if (round > 0 && sinks_.reset)
        sinks_.reset();
    if (cancelled_)
        return make_error(ErrorCode::Cancelled, "stopped");

    struct Round {
        std::mutex m;
        std::condition_variable cv;
        bool done = false;
        RequestStats stats;
        std::optional<Error> error;
    };
    auto state = std::make_shared<Round>();
    Request r;
    r.messages = messages;
    r.tools_json = tools;
    r.sampling = request_.sampling;
    r.max_tokens = request_.max_tokens;
    r.stop = request_.stop;
    r.ignore_eos = request_.ignore_eos;
    r.speculation = request_.speculation;
    r.callbacks.on_token = [this](std::string_view text, int32_t) {
        if (!text.empty() && sinks_.token)
            sinks_.token(text);
    };
    r.callbacks.on_error = [state](const Error& e) {
        std::lock_guard lk(state->m);
        state->error = e;
    };
    r.callbacks.on_done = [state](const RequestStats& s) {
        std::lock_guard lk(state->m);
        state->stats = s;
        state->done = true;
        state->cv.notify_all();
    };
    {
        std::lock_guard lk(m_);
        current_ = backend_.submit(std::move(r));
        if (cancelled_)
            backend_.cancel(current_);
    }
    RequestStats st;
    std::optional<Error> error;
    {
        std::unique_lock lk(state->m);
        state->cv.wait(lk, [&] { return state->done; });
        st = state->stats;
        error = state->error;
    }
    {
        std::lock_guard lk(m_);
        current_ = -1;
    }
    // The turn's figures: the first round's TTFT, the last round's prompt, every round's tokens.
    const int64_t generated = total_.generated_tokens + st.generated_tokens;
    const double ttft = round == 0 ? st.ttft_ms : total_.ttft_ms;
    total_ = st;
    total_.generated_tokens = generated;
    total_.ttft_ms = ttft;
    // A server with a tool parser returns its calls structured: run them as the engine's.
    st.text += render_tool_calls(st.tool_calls);
    if (cancelled_ || st.stop_reason == "cancelled")
        return make_error(ErrorCode::Cancelled, "stopped");
    if (st.stop_reason == "error")
        return error ? *error : make_error(ErrorCode::Io, "the answer failed");
    if (round < kMaxRounds) { // run_agent_turn runs these calls
        for (const ParsedCall& pc : parse_tool_calls(st.text).calls) {
            ToolCallRecord rec;
            rec.id = q(pc.call.id);
            rec.name = q(pc.call.name);
            rec.arguments = q(pc.call.arguments);
            calls_.append(rec);
            sinks_.callStarted(int(calls_.size()) - 1, rec);
        }
    }
    return st.text;
}

} // namespace folio::ui
