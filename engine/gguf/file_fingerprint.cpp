#include "gguf/file_fingerprint.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

namespace folio::gguf {

namespace {

constexpr uint64_t kEdgeBytes = 1 << 20;
constexpr uint64_t kSampleBytes = 64 << 10;
constexpr int kSamples = 16;

// Two 64-bit lanes of multiply-xorshift mixing (splitmix64's finaliser) over 8-byte words.
struct Hash128 {
    uint64_t a = 0x9e3779b97f4a7c15ull, b = 0xc2b2ae3d27d4eb4full;

    static uint64_t mix(uint64_t x) {
        x ^= x >> 30;
        x *= 0xbf58476d1ce4e5b9ull;
        x ^= x >> 27;
        x *= 0x94d049bb133111ebull;
        return x ^ (x >> 31);
    }
    void add(uint64_t w) {
        a = mix(a ^ w) + b;
        b = mix(b + w * 0xff51afd7ed558ccdull) ^ a;
    }
    void add(const std::vector<char>& bytes) {
        size_t i = 0;
        for (; i + 8 <= bytes.size(); i += 8) {
            uint64_t w = 0;
            for (int k = 0; k < 8; ++k)
                w |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[i + k])) << (8 * k);
            add(w);
        }
        uint64_t tail = bytes.size();
        for (int k = 0; i < bytes.size(); ++i, ++k)
            tail ^= static_cast<uint64_t>(static_cast<uint8_t>(bytes[i])) << (8 * (k % 8));
        add(tail);
    }
};

} // namespace

Expected<std::string> file_fingerprint(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in)
        return make_error(ErrorCode::NotFound, path + ": cannot open the model file");
    const std::streamoff end = in.tellg();
    if (end < 0)
        return make_error(ErrorCode::Io, path + ": cannot read the model file's size");
    const uint64_t size = static_cast<uint64_t>(end);
    Hash128 h;
    h.add(size);
    auto read_at = [&](uint64_t offset, uint64_t n) -> bool {
        n = std::min(n, size - std::min(offset, size));
        std::vector<char> bytes(n);
        in.seekg(static_cast<std::streamoff>(offset));
        if (n > 0 && !in.read(bytes.data(), static_cast<std::streamsize>(n)))
            return false;
        h.add(offset);
        h.add(bytes);
        return true;
    };
    bool ok = read_at(0, kEdgeBytes);
    for (int i = 1; ok && i <= kSamples; ++i)
        ok = read_at(size / (kSamples + 1) * i, kSampleBytes);
    ok = ok && read_at(size > kEdgeBytes ? size - kEdgeBytes : 0, kEdgeBytes);
    if (!ok)
        return make_error(ErrorCode::Io, path + ": read error while fingerprinting the model file");
    std::array<char, 33> hex{};
    std::snprintf(hex.data(), hex.size(), "%016llx%016llx", static_cast<unsigned long long>(h.a),
                  static_cast<unsigned long long>(h.b));
    return std::string(hex.data());
}

} // namespace folio::gguf
