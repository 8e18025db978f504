#pragma once
// Reads the body of POST /v1/chat/completions and /v1/completions into a folio::Request:
// messages (string content or content parts with text and base64 data-URL images), prompt
// (text or token ids), sampling, max_tokens, stop, seed, tools. Every malformed field is an
// error naming the field (the server answers 400 with it); nothing here throws.

#include "folio/engine.h"

#include <string>
#include <string_view>

namespace folio::serve {

enum class Endpoint { Chat, Completions };

struct ParsedRequest {
    Request request; // without callbacks
    bool stream = false;
    bool include_usage = false;    // stream_options.include_usage
    bool return_token_ids = false; // choices[].token_ids (vLLM's extension)
    std::string model;             // echoed back
};

struct RequestError {
    std::string message;
    std::string param; // the offending field, "" when not about one
};

struct RequestLimits {
    bool vision = false;     // a projector is loaded: images are accepted
    int64_t context = 32768; // max_tokens must fit
};

// Returns false and fills `error` when the body cannot be used.
bool parse_completion_request(std::string_view body, Endpoint endpoint, const RequestLimits& limits,
                              ParsedRequest& out, RequestError& error);

} // namespace folio::serve
