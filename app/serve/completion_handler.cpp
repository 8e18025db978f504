#include "serve/completion_handler.h"

#include "serve/api_error.h"
#include "serve/completion_json.h"
#include "serve/request_bridge.h"

#include <httplib.h>

#include <chrono>
#include <ctime>
#include <memory>

namespace folio::serve {

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

int status_for(const Error& e) {
    return e.code == ErrorCode::InvalidArgument || e.code == ErrorCode::Unsupported ? 400 : 500;
}

// Everything the streaming content provider keeps between its calls.
struct StreamState {
    ServerContext* ctx = nullptr;
    std::shared_ptr<RequestBridge> bridge;
    std::vector<TokenPiece> early; // pieces read before the headers went out
    SessionId session = 0;
    Endpoint endpoint = Endpoint::Chat;
    ResponseIds ids;
    bool with_ids = false;
    bool include_usage = false;
    bool first = true;
    Clock::time_point last_write = Clock::now();
};

bool write_event(httplib::DataSink& sink, const std::string& json, StreamState& st) {
    const std::string event = "data: " + json + "\n\n";
    st.last_write = Clock::now();
    return sink.write(event.data(), event.size());
}

bool write_pieces(httplib::DataSink& sink, std::vector<TokenPiece>& pieces, StreamState& st) {
    for (TokenPiece& p : pieces) {
        if (p.text.empty() && p.id < 0)
            continue;
        std::vector<int32_t> ids;
        if (p.id >= 0)
            ids.push_back(p.id);
        if (!write_event(sink, chunk_json(st.endpoint, st.ids, p.text, ids, st.with_ids, st.first),
                         st))
            return false;
        st.first = false;
    }
    pieces.clear();
    return true;
}

void count_done(ServerContext& ctx, const RequestStats& s) {
    ctx.counters.prompt_tokens += s.prompt_tokens;
    ctx.counters.generated_tokens += s.generated_tokens;
}

bool provide(StreamState& st, httplib::DataSink& sink) {
    std::vector<TokenPiece> pieces = std::move(st.early);
    st.early.clear();
    const bool done = st.bridge->take(pieces, 200ms);
    if (!write_pieces(sink, pieces, st))
        return false;
    if (!done) {
        // A comment line now and then: keeps proxies from timing out during a long prefill and
        // tells us soon when the client has gone away (the write fails).
        if (Clock::now() - st.last_write > 1s) {
            st.last_write = Clock::now();
            static const char ping[] = ": keep-alive\n\n";
            return sink.write(ping, sizeof ping - 1);
        }
        return true;
    }
    const RequestStats s = st.bridge->stats();
    count_done(*st.ctx, s);
    if (st.bridge->failed()) {
        ++st.ctx->counters.requests_failed;
        const Error e = st.bridge->error();
        write_event(sink, api_error_json(status_for(e), e.to_string()), st);
        sink.done(); // no [DONE]: the client reports the error
        return true;
    }
    if (!write_event(sink, final_chunk_json(st.endpoint, st.ids, s), st))
        return false;
    if (st.include_usage && !write_event(sink, usage_chunk_json(st.endpoint, st.ids, s), st))
        return false;
    static const char done_event[] = "data: [DONE]\n\n";
    sink.write(done_event, sizeof done_event - 1);
    sink.done();
    return true;
}

void answer_whole(ServerContext& ctx, RequestBridge& bridge, std::vector<TokenPiece> pieces,
                  const ParsedRequest& pr, Endpoint ep, const ResponseIds& ids,
                  httplib::Response& res) {
    while (!bridge.take(pieces, 1s)) {
    }
    const RequestStats s = bridge.stats();
    count_done(ctx, s);
    if (bridge.failed()) {
        ++ctx.counters.requests_failed;
        set_api_error(res, status_for(bridge.error()), bridge.error().to_string());
        return;
    }
    std::vector<int32_t> token_ids;
    for (const TokenPiece& p : pieces)
        if (p.id >= 0)
            token_ids.push_back(p.id);
    res.set_content(completion_json(ep, ids, s, token_ids, pr.return_token_ids),
                    "application/json");
}

} // namespace

void handle_completion(ServerContext& ctx, Endpoint endpoint, const std::string& body,
                       httplib::Response& res) {
    // counters.requests was counted as the request arrived (the pre-routing handler).
    ParsedRequest pr;
    RequestError err;
    RequestLimits limits;
    limits.vision = ctx.vision;
    limits.context = ctx.facts.context_limit > 0 ? ctx.facts.context_limit : 32768;
    if (!parse_completion_request(body, endpoint, limits, pr, err)) {
        ++ctx.counters.requests_failed;
        set_api_error(res, 400, err.message, err.param);
        return;
    }
    auto bridge = RequestBridge::attach(pr.request);
    ResponseIds ids;
    ids.id = (endpoint == Endpoint::Chat ? "chatcmpl-" : "cmpl-") +
             std::to_string(ctx.next_id.fetch_add(1));
    ids.model = ctx.options.model_name;
    ids.created = static_cast<int64_t>(std::time(nullptr));

    const SessionId session = ctx.engine.create_session();
    ctx.engine.submit(session, std::move(pr.request));
    ++ctx.counters.active;

    if (!pr.stream) {
        answer_whole(ctx, *bridge, {}, pr, endpoint, ids, res);
        ctx.engine.close_session(session);
        --ctx.counters.active;
        return;
    }

    // Errors found when the request starts (prompt too long, token id out of range) still get an
    // HTTP status: wait briefly for the first piece before committing to a 200 stream.
    auto st = std::make_shared<StreamState>();
    const auto until = Clock::now() + 2s;
    bool done = false;
    while (!done && st->early.empty() && Clock::now() < until)
        done = bridge->take(st->early, 50ms);
    if (done && bridge->failed() && st->early.empty()) {
        ++ctx.counters.requests_failed;
        set_api_error(res, status_for(bridge->error()), bridge->error().to_string());
        ctx.engine.close_session(session);
        --ctx.counters.active;
        return;
    }
    st->ctx = &ctx;
    st->bridge = bridge;
    st->session = session;
    st->endpoint = endpoint;
    st->ids = ids;
    st->with_ids = pr.return_token_ids;
    st->include_usage = pr.include_usage;
    res.set_header("Cache-Control", "no-cache");
    res.set_header("X-Accel-Buffering", "no");
    res.set_chunked_content_provider(
        "text/event-stream", [st](size_t, httplib::DataSink& sink) { return provide(*st, sink); },
        [st](bool) {
            // Runs once the response is gone: a client that disconnected mid-answer leaves an
            // unfinished request, which closing the session cancels.
            if (!st->bridge->finished())
                ++st->ctx->counters.requests_cancelled;
            st->ctx->engine.close_session(st->session);
            --st->ctx->counters.active;
        });
}

} // namespace folio::serve
