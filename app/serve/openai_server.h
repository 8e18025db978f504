#pragma once
// The OpenAI-compatible HTTP server of `folio-cli serve` (cpp-httplib): routes, bearer-token
// check, request size limit, JSON error bodies, and its lifetime (bind, run, stop).
//   POST /v1/chat/completions, POST /v1/completions, GET /v1/models, GET /health, GET /metrics

#include "serve/server_context.h"

#include <memory>
#include <string>

namespace folio::serve {

class OpenAiServer {
public:
    // `engine` must hold a loaded model (`facts`) and outlive the server.
    OpenAiServer(Engine& engine, ModelFacts facts, ServeOptions options, bool vision);
    ~OpenAiServer();
    OpenAiServer(const OpenAiServer&) = delete;
    OpenAiServer& operator=(const OpenAiServer&) = delete;

    // Binds host:port (port 0: any free port); returns the port, or an error.
    Expected<int> bind();
    // Serves until stop(); returns false when the listening loop failed.
    bool run();
    // Thread-safe; makes run() return.
    void stop();

    const ServerContext& context() const { return *ctx_; }

private:
    struct Impl;
    std::unique_ptr<ServerContext> ctx_;
    std::unique_ptr<Impl> impl_;
};

} // namespace folio::serve
