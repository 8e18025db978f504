#include "serve/data_url.h"

#include <string>

namespace folio::serve {

namespace {

int sextet(char c) {
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62;
    if (c == '/' || c == '_')
        return 63;
    return -1;
}

} // namespace

Expected<std::vector<uint8_t>> decode_base64(std::string_view text) {
    std::vector<uint8_t> out;
    out.reserve(text.size() / 4 * 3);
    uint32_t acc = 0;
    int bits = 0;
    size_t padding = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            continue;
        if (c == '=') {
            ++padding;
            continue;
        }
        const int v = sextet(c);
        if (v < 0 || padding > 0)
            return make_error(ErrorCode::InvalidArgument,
                              "invalid base64 character at offset " + std::to_string(i));
        acc = (acc << 6) | static_cast<uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<uint8_t>((acc >> bits) & 0xFF));
        }
    }
    if (bits >= 6 || padding > 2)
        return make_error(ErrorCode::InvalidArgument, "truncated base64 data");
    return out;
}

Expected<std::vector<uint8_t>> decode_data_url(std::string_view url) {
    if (url.substr(0, 5) != "data:")
        return make_error(ErrorCode::Unsupported,
                          "only data: URLs are accepted for images (Folio never downloads)");
    const size_t comma = url.find(',');
    if (comma == std::string_view::npos)
        return make_error(ErrorCode::InvalidArgument, "data URL without ','");
    const std::string_view meta = url.substr(5, comma - 5);
    if (meta.size() < 7 || meta.substr(meta.size() - 7) != ";base64")
        return make_error(ErrorCode::InvalidArgument, "data URL is not base64-encoded");
    return decode_base64(url.substr(comma + 1));
}

} // namespace folio::serve
