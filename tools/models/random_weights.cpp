#include "random_weights.h"

#include <cmath>

namespace folio::tools {

namespace {

// splitmix64: a small, well-mixed generator; one independent stream per chunk of elements.
uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t fnv1a(std::string_view s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (char c : s) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ull;
    }
    return h;
}

double uniform01(uint64_t& state) {
    // 53 random bits in (0, 1]: never 0, so log() below is finite.
    return (static_cast<double>(splitmix64(state) >> 11) + 1.0) * (1.0 / 9007199254740992.0);
}

} // namespace

void fill_normal(std::vector<float>& out, uint64_t seed, std::string_view name, float mean,
                 float stddev) {
    constexpr int64_t kChunk = 4096;
    const int64_t n = static_cast<int64_t>(out.size());
    const uint64_t base = seed * 0x9E3779B97F4A7C15ull ^ fnv1a(name);
#pragma omp parallel for schedule(static)
    for (int64_t chunk = 0; chunk < (n + kChunk - 1) / kChunk; ++chunk) {
        uint64_t state = base + static_cast<uint64_t>(chunk) * 0xD1B54A32D192ED03ull;
        const int64_t end = std::min(n, (chunk + 1) * kChunk);
        for (int64_t i = chunk * kChunk; i < end; i += 2) {
            // Box-Muller: two normals from two uniforms.
            const double r = std::sqrt(-2.0 * std::log(uniform01(state)));
            const double t = 6.283185307179586 * uniform01(state);
            out[i] = static_cast<float>(mean + stddev * r * std::cos(t));
            if (i + 1 < end)
                out[i + 1] = static_cast<float>(mean + stddev * r * std::sin(t));
        }
    }
}

} // namespace folio::tools
