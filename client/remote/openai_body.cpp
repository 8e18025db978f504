#include "remote/openai_body.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>

namespace folio::remote {

namespace {

using nlohmann::json;

std::string base64(const std::string& bytes) {
    static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const uint32_t v = uint32_t(uint8_t(bytes[i])) << 16 |
                           uint32_t(uint8_t(bytes[i + 1])) << 8 | uint8_t(bytes[i + 2]);
        out += {k[v >> 18], k[(v >> 12) & 63], k[(v >> 6) & 63], k[v & 63]};
    }
    if (i + 1 == bytes.size()) {
        const uint32_t v = uint32_t(uint8_t(bytes[i])) << 16;
        out += {k[v >> 18], k[(v >> 12) & 63], '=', '='};
    } else if (i + 2 == bytes.size()) {
        const uint32_t v = uint32_t(uint8_t(bytes[i])) << 16 | uint32_t(uint8_t(bytes[i + 1])) << 8;
        out += {k[v >> 18], k[(v >> 12) & 63], k[(v >> 6) & 63], '='};
    }
    return out;
}

void put32(std::string& s, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        s += char((v >> (8 * i)) & 0xFF);
}

std::string bmp_of(const ImageInput& im) {
    const uint32_t row = (uint32_t(im.width) * 3 + 3) & ~3u;
    const uint32_t pixels = row * uint32_t(im.height);
    std::string s = "BM";
    put32(s, 54 + pixels);
    put32(s, 0);
    put32(s, 54);
    put32(s, 40);
    put32(s, uint32_t(im.width));
    put32(s, uint32_t(im.height));
    s += {1, 0, 24, 0};
    put32(s, 0);
    put32(s, pixels);
    put32(s, 2835);
    put32(s, 2835);
    put32(s, 0);
    put32(s, 0);
    for (int y = im.height - 1; y >= 0; --y) { // bottom-up, BGR
        const uint8_t* p = im.rgb.data() + size_t(y) * size_t(im.width) * 3;
        for (int x = 0; x < im.width; ++x)
            s += {char(p[3 * x + 2]), char(p[3 * x + 1]), char(p[3 * x])};
        s.append(row - uint32_t(im.width) * 3, '\0');
    }
    return s;
}

const char* mime_of(const std::string& b) {
    if (b.rfind("\x89PNG", 0) == 0)
        return "image/png";
    if (b.rfind("\xFF\xD8", 0) == 0)
        return "image/jpeg";
    if (b.rfind("GIF8", 0) == 0)
        return "image/gif";
    if (b.rfind("BM", 0) == 0)
        return "image/bmp";
    return nullptr;
}

} // namespace

Expected<std::string> image_data_url(const ImageInput& image) {
    std::string bytes;
    if (!image.path.empty()) {
        std::ifstream f(image.path, std::ios::binary);
        if (!f)
            return make_error(ErrorCode::NotFound, "cannot read image " + image.path);
        bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    } else {
        if (image.width <= 0 || image.height <= 0 ||
            image.rgb.size() != size_t(image.width) * size_t(image.height) * 3)
            return make_error(ErrorCode::InvalidArgument, "image pixels do not match its size");
        bytes = bmp_of(image);
    }
    const char* mime = mime_of(bytes);
    if (!mime)
        return make_error(ErrorCode::Unsupported,
                          "not a PNG, JPEG, GIF or BMP image: " + image.path);
    return std::string("data:") + mime + ";base64," + base64(bytes);
}

Expected<RequestBody> make_request_body(const Request& r, const BodyOptions& o) {
    json j = {{"model", o.model}, {"stream", o.stream}, {"max_tokens", r.max_tokens}};
    RequestBody b;
    if (!r.messages.empty()) {
        b.path_suffix = "/chat/completions";
        json msgs = json::array();
        for (const Message& m : r.messages) {
            json jm = {{"role", m.role}};
            if (m.images.empty()) {
                jm["content"] = m.content;
            } else {
                json parts = json::array();
                for (const ImageInput& im : m.images) {
                    FOLIO_TRY(url, image_data_url(im));
                    parts.push_back({{"type", "image_url"}, {"image_url", {{"url", url}}}});
                }
                if (!m.content.empty())
                    parts.push_back({{"type", "text"}, {"text", m.content}});
                jm["content"] = parts;
            }
            if (!m.tool_calls.empty()) {
                json calls = json::array();
                for (const ToolCallInfo& t : m.tool_calls)
                    calls.push_back({{"id", t.id},
                                     {"type", "function"},
                                     {"function", {{"name", t.name}, {"arguments", t.arguments}}}});
                jm["tool_calls"] = calls;
            }
            msgs.push_back(jm);
        }
        j["messages"] = msgs;
        if (!r.tools_json.empty()) {
            json tools = json::parse(r.tools_json, nullptr, false);
            if (tools.is_discarded() || !tools.is_array())
                return make_error(ErrorCode::InvalidArgument, "tools_json is not a JSON array");
            j["tools"] = tools;
        }
    } else {
        b.path_suffix = "/completions";
        if (!r.prompt_tokens.empty())
            j["prompt"] = r.prompt_tokens;
        else
            j["prompt"] = r.prompt_text;
    }
    const Sampling& s = r.sampling;
    j["temperature"] = s.temperature;
    j["top_p"] = s.top_p;
    if (s.seed != 0)
        j["seed"] = s.seed;
    // Extensions vLLM, SGLang and folio-cli serve understand; sent only when not neutral, so a
    // strict server (OpenAI's) sees only its own fields in a default request.
    if (s.top_k > 0)
        j["top_k"] = s.top_k;
    if (s.min_p > 0)
        j["min_p"] = s.min_p;
    if (s.repetition_penalty != 1.0f)
        j["repetition_penalty"] = s.repetition_penalty;
    if (s.presence_penalty != 0.0f)
        j["presence_penalty"] = s.presence_penalty;
    if (r.ignore_eos)
        j["ignore_eos"] = true;
    if (!r.stop.empty())
        j["stop"] = r.stop;
    if (o.stream)
        j["stream_options"] = {{"include_usage", true}};
    if (o.token_ids)
        j["return_token_ids"] = true;
    b.json = j.dump(-1, ' ', false, json::error_handler_t::replace);
    return b;
}

} // namespace folio::remote
