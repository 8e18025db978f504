#include "serve/openai_server.h"

#include "serve/api_error.h"
#include "serve/completion_handler.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <ctime>
#include <sys/socket.h>

namespace folio::serve {

namespace {

// Compares without an early exit, so the key cannot be guessed byte by byte from timings.
bool same_secret(const std::string& a, const std::string& b) {
    unsigned diff = a.size() == b.size() ? 0u : 1u;
    for (size_t i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned>(a[i] ^ (i < b.size() ? b[i] : 0));
    return diff == 0;
}

void models_json(const ServerContext& ctx, httplib::Response& res) {
    nlohmann::json m = {{"id", ctx.options.model_name},
                        {"object", "model"},
                        {"created", static_cast<int64_t>(std::time(nullptr))},
                        {"owned_by", "folio"},
                        {"meta",
                         {{"architecture", ctx.facts.architecture},
                          {"context_length", ctx.facts.context_limit},
                          {"parameters", ctx.facts.parameters},
                          {"vocab_size", ctx.facts.vocab_size},
                          {"vision", ctx.vision}}}};
    nlohmann::json body = {{"object", "list"}, {"data", nlohmann::json::array({m})}};
    res.set_content(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                    "application/json");
}

bool is_completion_route(const std::string& path) {
    return path == "/v1/chat/completions" || path == "/v1/completions";
}

// The methods each route answers (cpp-httplib answers HEAD through the GET handlers); "" for a
// path the server does not have.
const char* allowed_methods(const std::string& path) {
    if (is_completion_route(path))
        return "POST";
    if (path == "/v1/models" || path == "/health" || path == "/metrics")
        return "GET, HEAD";
    return "";
}

bool method_allowed(const httplib::Request& req) {
    const std::string allow = allowed_methods(req.path);
    return allow.empty() || (", " + allow + ",").find(", " + req.method + ",") != std::string::npos;
}

// The methods whose body cpp-httplib reads (or hands to a content reader) before answering.
bool carries_body(const std::string& method) {
    return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}

// A path the server has, asked with a method it does not answer there: 405 with the methods it
// answers in Allow (RFC 9110 §15.5.6), not 404 as for an unknown path.
void refuse_method(const httplib::Request& req, httplib::Response& res) {
    const std::string allow = allowed_methods(req.path);
    res.set_header("Allow", allow);
    set_api_error(res, 405, req.method + " is not allowed on " + req.path + " (use " + allow + ")");
}

// HTTP/1.1 (RFC 9112 §6.3): a request with neither Content-Length nor Transfer-Encoding has no
// body. cpp-httplib would instead try to read one until the client closes or its read times
// out, and that failed read used to be answered as a body over --max-body (413).
bool has_body_framing(const httplib::Request& req) {
    return req.has_header("Content-Length") || req.has_header("Transfer-Encoding");
}

} // namespace

// cpp-httplib listens with a backlog of 5 (compiled into Debian's library): a burst of clients
// then overflows the accept queue and the kernel drops SYNs, which costs a client a 1 s
// retransmit. Listening again on the bound socket raises the backlog.
class HttpServer : public httplib::Server {
public:
    void widen_backlog(int n) {
        const auto fd = svr_sock_.load();
        if (fd != INVALID_SOCKET)
            ::listen(fd, n);
    }
};

struct OpenAiServer::Impl {
    HttpServer http;
};

OpenAiServer::OpenAiServer(Engine& engine, ModelFacts facts, ServeOptions options, bool vision)
    : ctx_(std::make_unique<ServerContext>(engine, std::move(facts), std::move(options), vision)),
      impl_(std::make_unique<Impl>()) {
    // A client that disconnects makes a write fail with EPIPE; without this the signal would end
    // the process.
    std::signal(SIGPIPE, SIG_IGN);
    ServerContext& ctx = *ctx_;
    if (ctx.options.model_name.empty())
        ctx.options.model_name = ctx.facts.name.empty() ? "folio" : ctx.facts.name;
    httplib::Server& s = impl_->http;
    const int threads = std::max(2, ctx.options.http_threads);
    s.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
    s.set_payload_max_length(ctx.options.max_body_bytes);
    s.set_tcp_nodelay(true);

    s.set_pre_routing_handler([&ctx](const httplib::Request& req, httplib::Response& res) {
        // Every completion request is counted here, once, as it arrives; whatever refuses it
        // later (key, body, JSON, engine) adds it to requests_failed (see ServerCounters).
        const bool completion = req.method == "POST" && is_completion_route(req.path);
        if (completion)
            ++ctx.counters.requests;
        if (!ctx.options.api_key.empty() && req.path != "/health" &&
            !same_secret(req.get_header_value("Authorization"), "Bearer " + ctx.options.api_key)) {
            if (completion)
                ++ctx.counters.requests_failed;
            res.set_header("WWW-Authenticate", "Bearer");
            set_api_error(res, 401, "missing or wrong API key (Authorization: Bearer ...)");
            return httplib::Server::HandlerResponse::Handled;
        }
        // A path the server has, asked with another method: 405 (refuse_method). A request with
        // a body goes on to a handler that reads it first, so that a kept-alive connection stays
        // in step; one without is answered here (cpp-httplib would answer a PUT or DELETE without
        // a body 400 before any handler sees it).
        if (!method_allowed(req) && !(carries_body(req.method) && has_body_framing(req))) {
            refuse_method(req, res);
            return httplib::Server::HandlerResponse::Handled;
        }
        return httplib::Server::HandlerResponse::Unhandled;
    });
    s.set_error_handler([](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty())
            return;
        std::string message = res.status == 404   ? "no such endpoint"
                              : res.status == 413 ? "the request body is too large"
                                                  : "request failed";
        set_api_error(res, res.status, message);
    });
    s.set_exception_handler(
        [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
            std::string what = "internal error";
            try {
                if (ep)
                    std::rethrow_exception(ep);
            } catch (const std::exception& e) {
                what += std::string(": ") + e.what();
            } catch (...) {
            }
            set_api_error(res, 500, what);
        });

    // Bodies are read through a content reader: JSON whatever the Content-Type (curl -d sends
    // application/x-www-form-urlencoded, which cpp-httplib would otherwise parse as a form and cap
    // at 8 KB); the --max-body limit (413) still applies while reading.
    const auto post = [&ctx](Endpoint ep) {
        return [&ctx, ep](const httplib::Request& req, httplib::Response& res,
                          const httplib::ContentReader& reader) {
            const std::string required = "the request has no body: send the request as a JSON "
                                         "object (with Content-Length or chunked encoding)";
            if (!has_body_framing(req)) {
                ++ctx.counters.requests_failed;
                set_api_error(res, 400, required);
                return;
            }
            std::string body;
            bool too_large = false;
            const bool read = reader([&](const char* data, size_t n) {
                if (body.size() + n > ctx.options.max_body_bytes) {
                    too_large = true;
                    return false;
                }
                body.append(data, n);
                return true;
            });
            if (!read) {
                // cpp-httplib sets 413 itself when Content-Length is over the limit; any other
                // failure is a body that could not be read (cut short, bad chunks, timeout).
                ++ctx.counters.requests_failed;
                if (too_large || res.status == 413)
                    set_api_error(res, 413,
                                  "the request body is larger than " +
                                      std::to_string(ctx.options.max_body_bytes) +
                                      " bytes (--max-body)");
                else
                    set_api_error(res, 400, "the request body could not be read in full");
                return;
            }
            if (body.empty()) {
                ++ctx.counters.requests_failed;
                set_api_error(res, 400, required);
                return;
            }
            handle_completion(ctx, ep, body, res);
        };
    };
    s.Post("/v1/chat/completions", httplib::Server::HandlerWithContentReader(post(Endpoint::Chat)));
    s.Post("/v1/completions",
           httplib::Server::HandlerWithContentReader(post(Endpoint::Completions)));
    // Bodies sent with a method a route does not answer: read (and dropped, up to --max-body)
    // before the 405, so the next request on a kept-alive connection starts where it should.
    const auto refuse_with_body = [&ctx](const httplib::Request& req, httplib::Response& res,
                                         const httplib::ContentReader& reader) {
        size_t n = 0;
        reader([&](const char*, size_t len) {
            n += len;
            return n <= ctx.options.max_body_bytes;
        });
        refuse_method(req, res);
    };
    using WithReader = httplib::Server::HandlerWithContentReader;
    for (const char* path : {"/v1/chat/completions", "/v1/completions"}) {
        s.Put(path, WithReader(refuse_with_body));
        s.Patch(path, WithReader(refuse_with_body));
        s.Delete(path, WithReader(refuse_with_body));
    }
    for (const char* path : {"/v1/models", "/health", "/metrics"}) {
        s.Post(path, WithReader(refuse_with_body));
        s.Put(path, WithReader(refuse_with_body));
        s.Patch(path, WithReader(refuse_with_body));
        s.Delete(path, WithReader(refuse_with_body));
    }
    s.Get("/v1/models",
          [&ctx](const httplib::Request&, httplib::Response& res) { models_json(ctx, res); });
    s.Get("/health", [&ctx](const httplib::Request&, httplib::Response& res) {
        const bool ok = ctx.engine.loaded();
        res.status = ok ? 200 : 503;
        res.set_content(ok ? R"({"status":"ok"})" : R"({"status":"loading"})", "application/json");
    });
    s.Get("/metrics", [&ctx](const httplib::Request&, httplib::Response& res) {
        res.set_content(prometheus_text(ctx.counters, ctx.engine.stats()),
                        "text/plain; version=0.0.4");
    });
}

OpenAiServer::~OpenAiServer() {
    stop();
}

Expected<int> OpenAiServer::bind() {
    const ServeOptions& o = ctx_->options;
    int port = o.port;
    if (o.port == 0) {
        port = impl_->http.bind_to_any_port(o.host);
        if (port <= 0)
            return make_error(ErrorCode::Io, "cannot bind " + o.host + " to a free port");
    } else if (!impl_->http.bind_to_port(o.host, o.port)) {
        return make_error(ErrorCode::Io, "cannot bind " + o.host + ":" + std::to_string(o.port) +
                                             " (in use, or not an address of this machine)");
    }
    impl_->http.widen_backlog(512);
    return port;
}

bool OpenAiServer::run() {
    return impl_->http.listen_after_bind();
}

void OpenAiServer::stop() {
    if (impl_)
        impl_->http.stop();
}

} // namespace folio::serve
