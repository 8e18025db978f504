#pragma once
// The JSON the server answers with, in OpenAI's shapes: chat.completion / text_completion objects,
// their streamed chunks, usage (with cached prompt tokens) and a "timings" object (TTFT and
// tokens per second, as llama.cpp's server reports them).

#include "folio/engine.h"
#include "serve/completion_request.h"

#include <cstdint>
#include <string>
#include <vector>

namespace folio::serve {

struct ResponseIds {
    std::string id;      // "chatcmpl-7" / "cmpl-7"
    std::string model;   // the served model's name
    int64_t created = 0; // unix seconds
};

// "stop" (eos or a stop string), "length", or "" while running.
std::string finish_reason(const RequestStats& s);

// One streamed chunk with a text delta (and its token ids when asked). The first chat chunk
// carries the role.
std::string chunk_json(Endpoint ep, const ResponseIds& ids, const std::string& text,
                       const std::vector<int32_t>& token_ids, bool with_ids, bool first);
// The last streamed chunk: empty delta, finish_reason, usage and timings.
std::string final_chunk_json(Endpoint ep, const ResponseIds& ids, const RequestStats& s);
// stream_options.include_usage: a chunk with no choices and the usage.
std::string usage_chunk_json(Endpoint ep, const ResponseIds& ids, const RequestStats& s);
// The whole non-streamed answer.
std::string completion_json(Endpoint ep, const ResponseIds& ids, const RequestStats& s,
                            const std::vector<int32_t>& token_ids, bool with_ids);

} // namespace folio::serve
