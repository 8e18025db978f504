#include "folio/cache.h"

#include <cctype>
#include <cstdlib>

namespace folio {

const char* kv_type_name(KvType t) {
    switch (t) {
    case KvType::F32:
        return "f32";
    case KvType::F16:
        return "f16";
    case KvType::BF16:
        return "bf16";
    case KvType::Q8_0:
        return "q8_0";
    }
    return "?";
}

bool parse_kv_type(const std::string& s, KvType& out) {
    for (KvType t : {KvType::F32, KvType::F16, KvType::BF16, KvType::Q8_0})
        if (s == kv_type_name(t)) {
            out = t;
            return true;
        }
    return false;
}

bool parse_byte_size(const std::string& s, int64_t& out) {
    if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0])))
        return false;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    std::string suffix(end);
    if (suffix.size() == 2 && (suffix[1] == 'B' || suffix[1] == 'b'))
        suffix.pop_back();
    int shift = 0;
    if (suffix.empty())
        shift = 0;
    else if (suffix.size() == 1) {
        switch (std::toupper(static_cast<unsigned char>(suffix[0]))) {
        case 'K':
            shift = 10;
            break;
        case 'M':
            shift = 20;
            break;
        case 'G':
            shift = 30;
            break;
        case 'T':
            shift = 40;
            break;
        default:
            return false;
        }
    } else
        return false;
    if (v > (static_cast<unsigned long long>(INT64_MAX) >> shift))
        return false;
    out = static_cast<int64_t>(v << shift);
    return true;
}

} // namespace folio
