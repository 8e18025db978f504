#pragma once
// POST /v1/chat/completions and /v1/completions: one Engine session per request (shared document
// prefixes still hit the engine's prefix cache), streamed as server-sent events or answered as one
// object; a client that disconnects cancels its request.

#include "serve/completion_request.h"
#include "serve/server_context.h"

namespace httplib {
struct Request;
struct Response;
} // namespace httplib

namespace folio::serve {

void handle_completion(ServerContext& ctx, Endpoint endpoint, const std::string& body,
                       httplib::Response& res);

} // namespace folio::serve
