#include "serve/completion_request.h"

#include "model/vision/image_io.h"
#include "serve/data_url.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

namespace folio::serve {

namespace {

using nlohmann::json;

// Thrown inside this file only, caught in parse_completion_request.
struct BadField {
    std::string message, param;
};

[[noreturn]] void bad(std::string param, std::string message) {
    throw BadField{std::move(message), std::move(param)};
}

double number_in(const json& j, const char* name, double lo, double hi) {
    if (!j.is_number())
        bad(name, std::string("'") + name + "' must be a number");
    const double v = j.get<double>();
    if (!std::isfinite(v) || v < lo || v > hi) {
        char range[64];
        std::snprintf(range, sizeof range, "%g and %g", lo, hi);
        bad(name, std::string("'") + name + "' must be between " + range);
    }
    return v;
}

int64_t integer_in(const json& j, const char* name, int64_t lo, int64_t hi) {
    if (!j.is_number_integer() && !j.is_number_unsigned())
        bad(name, std::string("'") + name + "' must be an integer");
    if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(hi))
        bad(name, std::string("'") + name + "' is too large");
    const int64_t v = j.get<int64_t>();
    if (v < lo || v > hi)
        bad(name, std::string("'") + name + "' must be between " + std::to_string(lo) + " and " +
                      std::to_string(hi));
    return v;
}

bool boolean(const json& j, const char* name) {
    if (!j.is_boolean())
        bad(name, std::string("'") + name + "' must be true or false");
    return j.get<bool>();
}

ImageInput image_from_part(const json& part, const RequestLimits& limits, const std::string& p) {
    if (!limits.vision)
        bad(p, "this server has no vision projector loaded (start it with --mmproj)");
    const json* url = nullptr;
    const json& iu = part.contains("image_url") ? part["image_url"] : json();
    if (iu.is_string())
        url = &iu;
    else if (iu.is_object() && iu.contains("url") && iu["url"].is_string())
        url = &iu["url"];
    if (!url)
        bad(p, "'image_url' must be a string or an object with a string 'url'");
    auto bytes = decode_data_url(url->get_ref<const std::string&>());
    if (!bytes)
        bad(p, bytes.error().message);
    auto img = vision::decode_image(*bytes, "image_url");
    if (!img)
        bad(p, img.error().message);
    ImageInput in;
    in.width = img->width;
    in.height = img->height;
    in.rgb = std::move(img->rgb);
    return in;
}

void read_content(const json& content, Message& m, const RequestLimits& limits,
                  const std::string& p) {
    if (content.is_null())
        return;
    if (content.is_string()) {
        m.content = content.get<std::string>();
        return;
    }
    if (!content.is_array())
        bad(p, "'content' must be a string, null or an array of parts");
    for (size_t i = 0; i < content.size(); ++i) {
        const json& part = content[i];
        const std::string pp = p + "[" + std::to_string(i) + "]";
        if (!part.is_object() || !part.contains("type") || !part["type"].is_string())
            bad(pp, "a content part must be an object with a string 'type'");
        const std::string type = part["type"].get<std::string>();
        if (type == "text") {
            if (!part.contains("text") || !part["text"].is_string())
                bad(pp, "a text part needs a string 'text'");
            m.content += part["text"].get<std::string>();
        } else if (type == "image_url") {
            if (m.role != "user")
                bad(pp, "images are accepted in user messages only");
            m.images.push_back(image_from_part(part, limits, pp));
        } else {
            bad(pp, "unsupported content part type '" + type + "'");
        }
    }
}

void read_tool_calls(const json& calls, Message& m, const std::string& p) {
    if (!calls.is_array())
        bad(p, "'tool_calls' must be an array");
    for (size_t i = 0; i < calls.size(); ++i) {
        const json& c = calls[i];
        const std::string pp = p + "[" + std::to_string(i) + "]";
        if (!c.is_object() || !c.contains("function") || !c["function"].is_object())
            bad(pp, "a tool call needs a 'function' object");
        const json& f = c["function"];
        if (!f.contains("name") || !f["name"].is_string())
            bad(pp, "a tool call needs a string function name");
        ToolCallInfo t;
        t.id = c.contains("id") && c["id"].is_string() ? c["id"].get<std::string>() : "";
        t.name = f["name"].get<std::string>();
        if (f.contains("arguments"))
            t.arguments = f["arguments"].is_string() ? f["arguments"].get<std::string>()
                                                     : f["arguments"].dump();
        m.tool_calls.push_back(std::move(t));
    }
}

void read_messages(const json& messages, Request& r, const RequestLimits& limits) {
    if (!messages.is_array() || messages.empty())
        bad("messages", "'messages' must be a non-empty array");
    for (size_t i = 0; i < messages.size(); ++i) {
        const json& jm = messages[i];
        const std::string p = "messages[" + std::to_string(i) + "]";
        if (!jm.is_object() || !jm.contains("role") || !jm["role"].is_string())
            bad(p, "a message must be an object with a string 'role'");
        Message m;
        m.role = jm["role"].get<std::string>();
        if (m.role == "developer")
            m.role = "system";
        if (m.role != "system" && m.role != "user" && m.role != "assistant" && m.role != "tool")
            bad(p + ".role", "unknown role '" + m.role + "'");
        if (jm.contains("content"))
            read_content(jm["content"], m, limits, p + ".content");
        if (jm.contains("tool_calls") && !jm["tool_calls"].is_null())
            read_tool_calls(jm["tool_calls"], m, p + ".tool_calls");
        r.messages.push_back(std::move(m));
    }
}

void read_prompt(const json& prompt, Request& r) {
    if (prompt.is_string()) {
        r.prompt_text = prompt.get<std::string>();
        return;
    }
    if (prompt.is_array() && prompt.size() == 1 && prompt[0].is_string()) {
        r.prompt_text = prompt[0].get<std::string>();
        return;
    }
    if (!prompt.is_array() || prompt.empty())
        bad("prompt", "'prompt' must be a string or a non-empty array of token ids");
    for (const json& t : prompt)
        r.prompt_tokens.push_back(static_cast<int32_t>(integer_in(t, "prompt", 0, INT32_MAX)));
}

void read_stop(const json& stop, Request& r) {
    if (stop.is_null())
        return;
    if (stop.is_string()) {
        r.stop.push_back(stop.get<std::string>());
        return;
    }
    if (!stop.is_array() || stop.size() > 16)
        bad("stop", "'stop' must be a string or an array of at most 16 strings");
    for (const json& s : stop) {
        if (!s.is_string() || s.get_ref<const std::string&>().empty())
            bad("stop", "'stop' entries must be non-empty strings");
        r.stop.push_back(s.get<std::string>());
    }
}

void read_fields(const json& body, Endpoint endpoint, const RequestLimits& limits,
                 ParsedRequest& out) {
    Request& r = out.request;
    Sampling& s = r.sampling;
    // OpenAI's defaults: temperature 1, top_p 1, no top-k / min-p.
    s.temperature = 1.0f;
    s.top_p = 1.0f;
    s.top_k = 0;
    s.min_p = 0.0f;
    r.max_tokens = 256;
    if (endpoint == Endpoint::Chat) {
        if (!body.contains("messages"))
            bad("messages", "'messages' is required");
        read_messages(body["messages"], r, limits);
    } else {
        if (!body.contains("prompt"))
            bad("prompt", "'prompt' is required");
        read_prompt(body["prompt"], r);
    }
    for (const auto& [key, v] : body.items()) {
        if (v.is_null())
            continue;
        if (key == "model") {
            if (!v.is_string())
                bad(key, "'model' must be a string");
            out.model = v.get<std::string>();
        } else if (key == "stream") {
            out.stream = boolean(v, "stream");
        } else if (key == "stream_options") {
            if (!v.is_object())
                bad(key, "'stream_options' must be an object");
            if (v.contains("include_usage"))
                out.include_usage = boolean(v["include_usage"], "stream_options.include_usage");
        } else if (key == "temperature") {
            s.temperature = static_cast<float>(number_in(v, "temperature", 0, 2));
        } else if (key == "top_p") {
            s.top_p = static_cast<float>(number_in(v, "top_p", 0, 1));
        } else if (key == "top_k") {
            const int64_t k = integer_in(v, "top_k", -1, 1 << 20);
            s.top_k = k < 0 ? 0 : static_cast<int>(k);
        } else if (key == "min_p") {
            s.min_p = static_cast<float>(number_in(v, "min_p", 0, 1));
        } else if (key == "presence_penalty") {
            s.presence_penalty = static_cast<float>(number_in(v, "presence_penalty", -2, 2));
        } else if (key == "repetition_penalty") {
            s.repetition_penalty = static_cast<float>(number_in(v, "repetition_penalty", 0.01, 10));
        } else if (key == "seed") {
            s.seed = static_cast<uint64_t>(integer_in(v, "seed", INT64_MIN, INT64_MAX));
        } else if (key == "max_tokens" || key == "max_completion_tokens") {
            r.max_tokens = static_cast<int>(
                integer_in(v, key.c_str(), 1, std::max<int64_t>(1, limits.context)));
        } else if (key == "stop") {
            read_stop(v, r);
        } else if (key == "n") {
            if (integer_in(v, "n", 1, 1) != 1)
                bad("n", "only n = 1 is supported");
        } else if (key == "ignore_eos") {
            r.ignore_eos = boolean(v, "ignore_eos");
        } else if (key == "return_token_ids") {
            out.return_token_ids = boolean(v, "return_token_ids");
        } else if (key == "tools") {
            if (!v.is_array())
                bad(key, "'tools' must be an array");
            // Compact, keys sorted: folio::canonical_tools_json, the form the workbench's
            // embedded backend renders too (same tool turn, same prompt).
            if (!v.empty())
                r.tools_json = v.dump();
        }
        // Other OpenAI fields (user, logit_bias, frequency_penalty, ...) are accepted and ignored.
    }
}

} // namespace

bool parse_completion_request(std::string_view body, Endpoint endpoint, const RequestLimits& limits,
                              ParsedRequest& out, RequestError& error) {
    json j = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) {
        error = {"the request body is not valid JSON", ""};
        return false;
    }
    if (!j.is_object()) {
        error = {"the request body must be a JSON object", ""};
        return false;
    }
    try {
        read_fields(j, endpoint, limits, out);
    } catch (const BadField& e) {
        error = {e.message, e.param};
        return false;
    } catch (const std::exception& e) { // a type nlohmann refused: still the client's fault
        error = {std::string("malformed request: ") + e.what(), ""};
        return false;
    }
    out.request.interactive = true;
    return true;
}

} // namespace folio::serve
