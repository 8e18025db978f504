#include "remote/remote_call.h"

#include "remote/openai_body.h"
#include "remote/sse_parser.h"
#include "remote/stream_event.h"

#include <httplib.h>
#include <map>

namespace folio::remote {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

// Failures before any byte of an answer where the server's application most likely never saw
// the request: safe to try again. A read or write error counts only when it came quickly (a
// refused or reset connection), not after a read timeout.
bool transient(httplib::Error e, double elapsed_s, const RemoteOptions& o) {
    if (e == httplib::Error::Connection || e == httplib::Error::ConnectionTimeout ||
        e == httplib::Error::SSLConnection)
        return true;
    return (e == httplib::Error::Read || e == httplib::Error::Write) &&
           elapsed_s < std::max(0.5, o.connect_timeout_s);
}

bool transient_status(int status) {
    return status == 502 || status == 503 || status == 504;
}

ErrorCode code_for_status(int status) {
    if (status == 404)
        return ErrorCode::NotFound;
    if (status == 413)
        return ErrorCode::OutOfMemory;
    return status < 500 ? ErrorCode::InvalidArgument : ErrorCode::Io;
}

// What one attempt has seen.
struct Attempt {
    SseParser sse;
    bool got_response = false;
    int status = 0;
    std::string error_body;
    bool saw_done = false;
    std::string finish;
    std::string stream_error;
};

// The answer over all attempts (only the successful attempt produces text).
struct Answer {
    RequestStats stats;
    std::string text;
    int64_t chunks = 0;
    bool first = true;
    Clock::time_point first_at, last_at;
    std::optional<int64_t> prompt_tokens, completion_tokens, cached_tokens;
    std::map<int, ToolCallInfo> tool_calls; // structured calls by index, pieces concatenated
};

void on_event(const StreamEvent& ev, Attempt& at, Answer& an, const Request& r,
              Clock::time_point submitted) {
    if (ev.done_marker) {
        at.saw_done = true;
        return;
    }
    if (!ev.error.empty()) {
        at.stream_error = ev.error;
        return;
    }
    if (ev.prompt_tokens)
        an.prompt_tokens = ev.prompt_tokens;
    if (ev.completion_tokens)
        an.completion_tokens = ev.completion_tokens;
    if (ev.cached_tokens)
        an.cached_tokens = ev.cached_tokens;
    if (!ev.text.empty() || !ev.token_ids.empty()) {
        const auto now = Clock::now();
        if (an.first) {
            an.first = false;
            an.first_at = now;
            an.stats.ttft_ms = ms_between(submitted, now);
        }
        an.last_at = now;
        an.text += ev.text;
        an.chunks += std::max<int64_t>(1, static_cast<int64_t>(ev.token_ids.size()));
        if (r.callbacks.on_token) {
            if (ev.token_ids.empty()) {
                r.callbacks.on_token(ev.text, -1);
            } else {
                r.callbacks.on_token(ev.text, ev.token_ids[0]);
                for (size_t i = 1; i < ev.token_ids.size(); ++i)
                    r.callbacks.on_token({}, ev.token_ids[i]);
            }
        }
    }
    for (const ToolCallDelta& d : ev.tool_calls) {
        ToolCallInfo& c = an.tool_calls[d.index];
        c.id += d.id; // sent once, with the first piece
        c.name += d.name;
        c.arguments += d.arguments;
    }
    if (!ev.finish_reason.empty())
        at.finish = ev.finish_reason;
}

void finish(const Request& r, Answer& an, const std::string& reason, const Error* error) {
    if (error && r.callbacks.on_error)
        r.callbacks.on_error(*error);
    RequestStats& s = an.stats;
    s.stop_reason = reason;
    s.text = an.text;
    s.tool_calls.clear();
    for (const auto& [index, call] : an.tool_calls)
        s.tool_calls.push_back(call);
    s.generated_tokens = an.completion_tokens.value_or(an.chunks);
    s.prompt_tokens = an.prompt_tokens.value_or(0);
    s.reused_tokens = an.cached_tokens.value_or(0);
    if (s.ttft_ms > 0 && s.prompt_tokens > 0)
        s.prefill_tps = s.prompt_tokens / (s.ttft_ms / 1000.0);
    const double decode_ms = an.first ? 0 : ms_between(an.first_at, an.last_at);
    if (an.chunks > 1 && decode_ms > 0)
        s.decode_tps = (an.chunks - 1) / (decode_ms / 1000.0);
    if (r.callbacks.on_done)
        r.callbacks.on_done(s);
}

bool backoff(CallControl& ctl, const RemoteOptions& o, int attempt) {
    const auto delay = std::chrono::duration<double, std::milli>(o.backoff_ms * (1 << attempt));
    std::unique_lock lk(ctl.m);
    ctl.cv.wait_for(lk, delay, [&] { return ctl.cancelled.load(); });
    return !ctl.cancelled;
}

} // namespace

void CallControl::cancel() {
    std::lock_guard lk(m);
    cancelled = true;
    if (client)
        client->stop();
    cv.notify_all();
}

void configure_client(httplib::Client& c, const RemoteOptions& o) {
    const auto split = [](double s, time_t& sec, time_t& usec) {
        sec = static_cast<time_t>(s);
        usec = static_cast<time_t>((s - double(sec)) * 1e6);
    };
    time_t sec = 0, usec = 0;
    split(o.connect_timeout_s, sec, usec);
    c.set_connection_timeout(sec, usec);
    split(o.read_timeout_s, sec, usec);
    c.set_read_timeout(sec, usec);
    c.set_write_timeout(60, 0);
    c.set_keep_alive(false);
    c.set_follow_location(false);
    if (!o.api_key.empty())
        c.set_bearer_token_auth(o.api_key);
#ifdef CPPHTTPLIB_OPENSSL_SUPPORT
    c.enable_server_certificate_verification(o.verify_tls);
    if (!o.ca_cert_file.empty())
        c.set_ca_cert_path(o.ca_cert_file);
#endif
}

void run_remote_call(const RemoteOptions& o, const Endpoint& ep, Request r, CallControl& ctl,
                     Clock::time_point submitted) {
    Answer an;
    auto body = make_request_body(r, {o.model, true, o.token_ids});
    if (!body) {
        finish(r, an, "error", &body.error());
        return;
    }
    const std::string url = ep.display() + body->path_suffix;
    for (int attempt = 0;; ++attempt) {
        Attempt at;
        httplib::Client client(ep.scheme_host_port);
        configure_client(client, o);
        {
            std::lock_guard lk(ctl.m);
            if (ctl.cancelled) {
                finish(r, an, "cancelled", nullptr);
                return;
            }
            ctl.client = &client;
        }
        httplib::Request req;
        req.method = "POST";
        req.path = ep.prefix + body->path_suffix;
        req.headers = {{"Content-Type", "application/json"}, {"Accept", "text/event-stream"}};
        req.body = body->json;
        req.response_handler = [&](const httplib::Response& res) {
            at.got_response = true;
            at.status = res.status;
            return true;
        };
        std::vector<std::string> events;
        req.content_receiver = [&](const char* data, size_t n, uint64_t, uint64_t) {
            if (at.status != 200) {
                if (at.error_body.size() < 65536)
                    at.error_body.append(data, n);
                return true;
            }
            events.clear();
            at.sse.feed(std::string_view(data, n), events);
            for (const std::string& e : events) {
                StreamEvent ev;
                if (!parse_stream_event(e, ev)) {
                    at.stream_error = ev.error;
                    return false;
                }
                on_event(ev, at, an, r, submitted);
            }
            return !ctl.cancelled.load();
        };
        httplib::Response res;
        httplib::Error err = httplib::Error::Success;
        const auto started = Clock::now();
        const bool ok = client.send(req, res, err);
        const double elapsed_s = std::chrono::duration<double>(Clock::now() - started).count();
        {
            std::lock_guard lk(ctl.m);
            ctl.client = nullptr;
        }
        if (ctl.cancelled) {
            finish(r, an, "cancelled", nullptr);
            return;
        }
        const bool can_retry = attempt < o.max_retries;
        if (!ok && !at.got_response && transient(err, elapsed_s, o) && can_retry) {
            if (!backoff(ctl, o, attempt)) {
                finish(r, an, "cancelled", nullptr);
                return;
            }
            continue;
        }
        if (at.got_response && transient_status(at.status) && can_retry) {
            if (!backoff(ctl, o, attempt)) {
                finish(r, an, "cancelled", nullptr);
                return;
            }
            continue;
        }
        if (!at.got_response) {
            const Error e =
                make_error(ErrorCode::Io, "cannot reach " + url + ": " + httplib::to_string(err) +
                                              " (" + std::to_string(attempt + 1) + " attempts)");
            finish(r, an, "error", &e);
            return;
        }
        if (at.status != 200) {
            const Error e = make_error(code_for_status(at.status),
                                       "HTTP " + std::to_string(at.status) + " from " + url + ": " +
                                           error_message_of(at.error_body));
            finish(r, an, "error", &e);
            return;
        }
        if (!at.stream_error.empty()) {
            const Error e = make_error(ErrorCode::Io, "the server reported an error after " +
                                                          std::to_string(an.chunks) +
                                                          " tokens: " + at.stream_error);
            finish(r, an, "error", &e);
            return;
        }
        if (!ok || (!at.saw_done && at.finish.empty())) {
            const std::string why =
                ok ? "the stream ended without [DONE]" : httplib::to_string(err);
            const Error e =
                make_error(ErrorCode::Io, "the connection to " + url + " was lost after " +
                                              std::to_string(an.chunks) + " tokens (" + why +
                                              "); the partial answer is kept");
            finish(r, an, "error", &e);
            return;
        }
        finish(r, an, at.finish == "length" ? "length" : "stop", nullptr);
        return;
    }
}

} // namespace folio::remote
