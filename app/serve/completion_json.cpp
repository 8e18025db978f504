#include "serve/completion_json.h"

#include <nlohmann/json.hpp>

namespace folio::serve {

namespace {

using nlohmann::json;

std::string dump(const json& j) {
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

json usage(const RequestStats& s) {
    return {{"prompt_tokens", s.prompt_tokens},
            {"completion_tokens", s.generated_tokens},
            {"total_tokens", s.prompt_tokens + s.generated_tokens},
            {"prompt_tokens_details", {{"cached_tokens", s.reused_tokens}}}};
}

json timings(const RequestStats& s) {
    return {{"prompt_n", s.prompt_tokens},        {"cache_n", s.reused_tokens},
            {"predicted_n", s.generated_tokens},  {"ttft_ms", s.ttft_ms},
            {"prompt_per_second", s.prefill_tps}, {"predicted_per_second", s.decode_tps}};
}

json envelope(Endpoint ep, const ResponseIds& ids, bool chunk) {
    const char* object = ep == Endpoint::Chat
                             ? (chunk ? "chat.completion.chunk" : "chat.completion")
                             : "text_completion";
    return {{"id", ids.id}, {"object", object}, {"created", ids.created}, {"model", ids.model}};
}

json reason_or_null(const std::string& r) {
    return r.empty() ? json() : json(r);
}

} // namespace

std::string finish_reason(const RequestStats& s) {
    if (s.stop_reason == "eos" || s.stop_reason == "stop")
        return "stop";
    if (s.stop_reason == "length")
        return "length";
    return s.stop_reason;
}

std::string chunk_json(Endpoint ep, const ResponseIds& ids, const std::string& text,
                       const std::vector<int32_t>& token_ids, bool with_ids, bool first) {
    json choice = {{"index", 0}, {"finish_reason", nullptr}};
    if (ep == Endpoint::Chat) {
        json delta = {{"content", text}};
        if (first)
            delta["role"] = "assistant";
        choice["delta"] = delta;
    } else {
        choice["text"] = text;
    }
    if (with_ids)
        choice["token_ids"] = token_ids;
    json j = envelope(ep, ids, true);
    j["choices"] = json::array({choice});
    return dump(j);
}

std::string final_chunk_json(Endpoint ep, const ResponseIds& ids, const RequestStats& s) {
    json choice = {{"index", 0}, {"finish_reason", reason_or_null(finish_reason(s))}};
    if (ep == Endpoint::Chat)
        choice["delta"] = json::object();
    else
        choice["text"] = "";
    json j = envelope(ep, ids, true);
    j["choices"] = json::array({choice});
    j["usage"] = usage(s);
    j["timings"] = timings(s);
    return dump(j);
}

std::string usage_chunk_json(Endpoint ep, const ResponseIds& ids, const RequestStats& s) {
    json j = envelope(ep, ids, true);
    j["choices"] = json::array();
    j["usage"] = usage(s);
    return dump(j);
}

std::string completion_json(Endpoint ep, const ResponseIds& ids, const RequestStats& s,
                            const std::vector<int32_t>& token_ids, bool with_ids) {
    json choice = {{"index", 0}, {"finish_reason", reason_or_null(finish_reason(s))}};
    if (ep == Endpoint::Chat)
        choice["message"] = {{"role", "assistant"}, {"content", s.text}};
    else
        choice["text"] = s.text;
    if (with_ids)
        choice["token_ids"] = token_ids;
    json j = envelope(ep, ids, false);
    j["choices"] = json::array({choice});
    j["usage"] = usage(s);
    j["timings"] = timings(s);
    return dump(j);
}

} // namespace folio::serve
