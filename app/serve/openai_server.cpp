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
        if (ctx.options.api_key.empty() || req.path == "/health")
            return httplib::Server::HandlerResponse::Unhandled;
        const std::string auth = req.get_header_value("Authorization");
        if (!same_secret(auth, "Bearer " + ctx.options.api_key)) {
            res.set_header("WWW-Authenticate", "Bearer");
            set_api_error(res, 401, "missing or wrong API key (Authorization: Bearer ...)");
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
        return [&ctx, ep](const httplib::Request&, httplib::Response& res,
                          const httplib::ContentReader& reader) {
            std::string body;
            const bool read = reader([&](const char* data, size_t n) {
                if (body.size() + n > ctx.options.max_body_bytes)
                    return false;
                body.append(data, n);
                return true;
            });
            if (!read || body.size() > ctx.options.max_body_bytes) {
                // Too large (cpp-httplib's own check sets 413 too), or the client went away.
                ++ctx.counters.requests_failed;
                set_api_error(res, 413,
                              "the request body is larger than " +
                                  std::to_string(ctx.options.max_body_bytes) + " bytes");
                return;
            }
            handle_completion(ctx, ep, body, res);
        };
    };
    s.Post("/v1/chat/completions", httplib::Server::HandlerWithContentReader(post(Endpoint::Chat)));
    s.Post("/v1/completions",
           httplib::Server::HandlerWithContentReader(post(Endpoint::Completions)));
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
