// AVX-512 VNNI q8_0 DSA index scoring (kernels/index_score.h), on 256-bit registers: one lane
// per key of a tile as in the AVX2 kernel, two tiles and four heads at a time.
//
// vpdpbusd multiplies unsigned by signed bytes and adds each 4-product sum to an int32 lane: one
// instruction per 4-value group and head where AVX2 needs sign, maddubs, madd and add. The keys
// are signed, so they enter as k + 128 (the top bit flipped, once per group for all heads) and
// the accumulator of each block starts at -128·Σq of the query block:
//   Σ (k + 128)·q - 128·Σ q = Σ k·q,
// exact in int32 (|Σ| <= 32·255·127). The float step is the AVX2 kernel's, in the same order, so
// the scores equal avx2::index_score_q8_0 bit for bit.
//
// Compiled with -mavx512f -mavx512vl -mavx512bw -mavx512vnni (engine/CMakeLists.txt) and entered
// only through index_score_kernel() after the run-time CPU check.
#include "kernels/index_score.h"

#include "kernels/head_groups.h"

#include <immintrin.h>

#include <cstring>

namespace folio::avx512 {

namespace {

// NT tiles (tb bytes apart) against heads h0 .. h0+NH-1; adds Σ_h w_h·ReLU(q_h·k) to score[t].
// vpdpbusd has a latency of several cycles: the NT·NH accumulators are independent chains that
// keep it busy, and each query broadcast serves NT tiles.
template <int NH, int NT>
inline void q8_heads(const IndexQuery& q, int64_t h0, const uint8_t* tile, size_t tb,
                     __m256* score) {
    const int64_t D = q.sdim, nb = D / 32;
    const __m256i flip = _mm256_set1_epi8(static_cast<char>(0x80));
    __m256 facc[NT][NH];
    for (int t = 0; t < NT; ++t)
        for (int j = 0; j < NH; ++j)
            facc[t][j] = _mm256_setzero_ps();
    for (int64_t b = 0; b < nb; ++b) {
        __m256i iacc[NT][NH];
        for (int j = 0; j < NH; ++j) {
            const __m256i offset = _mm256_set1_epi32(-128 * q.q8_sum[(h0 + j) * nb + b]);
            for (int t = 0; t < NT; ++t)
                iacc[t][j] = offset;
        }
        const uint8_t* kb = tile + b * 8 * 32; // the 8 groups of 4 values of block b
        const int8_t* qb = q.q8 + h0 * D + b * 32;
#pragma GCC unroll 8
        for (int g = 0; g < 8; ++g) {
            __m256i ku[NT];
            for (int t = 0; t < NT; ++t)
                ku[t] = _mm256_xor_si256(
                    _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kb + t * tb + g * 32)),
                    flip);
            for (int j = 0; j < NH; ++j) {
                int32_t q4;
                std::memcpy(&q4, qb + j * D + g * 4, 4);
                const __m256i qv = _mm256_set1_epi32(q4);
                for (int t = 0; t < NT; ++t)
                    iacc[t][j] = _mm256_dpbusd_epi32(iacc[t][j], ku[t], qv);
            }
        }
        for (int t = 0; t < NT; ++t) {
            const __m256 dk = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(
                tile + t * tb + D * kIndexTile + b * kIndexTile * 2)));
            for (int j = 0; j < NH; ++j)
                facc[t][j] = _mm256_fmadd_ps(
                    _mm256_cvtepi32_ps(iacc[t][j]),
                    _mm256_mul_ps(dk, _mm256_set1_ps(q.q8_d[(h0 + j) * nb + b])), facc[t][j]);
        }
    }
    const __m256 zero = _mm256_setzero_ps();
    for (int j = 0; j < NH; ++j) {
        const __m256 w = _mm256_set1_ps(q.w[h0 + j]);
        for (int t = 0; t < NT; ++t)
            score[t] = _mm256_fmadd_ps(w, _mm256_max_ps(facc[t][j], zero), score[t]);
    }
}

// Scores NT tiles over all heads, in groups of four, and stores the NT·8 scores.
template <int NT>
inline void q8_tiles(const IndexQuery& q, const uint8_t* tile, size_t tb, float* out) {
    __m256 score[NT];
    for (int t = 0; t < NT; ++t)
        score[t] = _mm256_setzero_ps();
    for_head_groups_of_4(q.n_heads, [&](auto nh, int64_t h0) {
        q8_heads<decltype(nh)::value, NT>(q, h0, tile, tb, score);
    });
    for (int t = 0; t < NT; ++t)
        _mm256_storeu_ps(out + t * kIndexTile, score[t]);
}

// As in the AVX2 kernel: the keys stream from DRAM in a decode step.
constexpr int64_t kPrefetchTiles = 16;

} // namespace

void index_score_q8_0(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out) {
    const size_t tb = index_tile_bytes(IndexKeyFormat::Q8_0, q.sdim);
    int64_t t = 0;
    for (; t + 2 <= n_tiles; t += 2) {
        const uint8_t* tile = tiles + t * tb;
        if (t + kPrefetchTiles + 2 <= n_tiles) {
            const char* ahead = reinterpret_cast<const char*>(tile + kPrefetchTiles * tb);
            for (size_t off = 0; off < 2 * tb; off += 64)
                _mm_prefetch(ahead + off, _MM_HINT_T0);
        }
        q8_tiles<2>(q, tile, tb, out + t * kIndexTile);
    }
    if (t < n_tiles)
        q8_tiles<1>(q, tiles + t * tb, tb, out + t * kIndexTile);
}

} // namespace folio::avx512
