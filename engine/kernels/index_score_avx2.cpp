// AVX2 + FMA + F16C DSA index score kernels (kernels/index_score.h): one lane per key of a tile,
// heads in groups of four, so no horizontal reduction is needed. Entered only through
// index_score_kernel() after a run-time CPU check; everything here has internal linkage apart
// from the three entry points.
#include "kernels/index_score.h"

#include "kernels/head_groups.h"

#include <immintrin.h>

#include <cstring>

namespace folio::avx2 {

namespace {

inline __m256 load_f32(const uint8_t* tile, int64_t d) {
    return _mm256_loadu_ps(reinterpret_cast<const float*>(tile) + d * kIndexTile);
}

inline __m256 load_f16(const uint8_t* tile, int64_t d) {
    return _mm256_cvtph_ps(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(tile + d * kIndexTile * 2)));
}

// NT tiles (tb bytes apart) against heads h0 .. h0+NH-1; adds Σ_h w_h·ReLU(q_h·k) to score[t].
template <int NH, int NT, bool F16>
inline void float_heads(const IndexQuery& q, int64_t h0, const uint8_t* tile, size_t tb,
                        __m256* score) {
    const int64_t D = q.sdim;
    __m256 acc[NT][NH];
    const float* qh[NH];
    for (int j = 0; j < NH; ++j) {
        qh[j] = q.q + (h0 + j) * D;
        for (int t = 0; t < NT; ++t)
            acc[t][j] = _mm256_setzero_ps();
    }
    for (int64_t d = 0; d < D; ++d) {
        __m256 k[NT];
        for (int t = 0; t < NT; ++t)
            k[t] = F16 ? load_f16(tile + t * tb, d) : load_f32(tile + t * tb, d);
        for (int j = 0; j < NH; ++j) {
            const __m256 qb = _mm256_broadcast_ss(qh[j] + d);
            for (int t = 0; t < NT; ++t)
                acc[t][j] = _mm256_fmadd_ps(qb, k[t], acc[t][j]);
        }
    }
    const __m256 zero = _mm256_setzero_ps();
    for (int j = 0; j < NH; ++j) {
        const __m256 w = _mm256_set1_ps(q.w[h0 + j]);
        for (int t = 0; t < NT; ++t)
            score[t] = _mm256_fmadd_ps(w, _mm256_max_ps(acc[t][j], zero), score[t]);
    }
}

template <int NT, bool F16>
inline void float_tiles(const IndexQuery& q, const uint8_t* tile, size_t tb, float* out) {
    __m256 score[NT];
    for (int t = 0; t < NT; ++t)
        score[t] = _mm256_setzero_ps();
    for_head_groups_of_4(q.n_heads, [&](auto nh, int64_t h0) {
        float_heads<decltype(nh)::value, NT, F16>(q, h0, tile, tb, score);
    });
    for (int t = 0; t < NT; ++t)
        _mm256_storeu_ps(out + t * kIndexTile, score[t]);
}

template <bool F16>
void float_score(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out) {
    const size_t tb = index_tile_bytes(F16 ? IndexKeyFormat::F16 : IndexKeyFormat::F32, q.sdim);
    int64_t t = 0;
    for (; t + 2 <= n_tiles; t += 2)
        float_tiles<2, F16>(q, tiles + t * tb, tb, out + t * kIndexTile);
    if (t < n_tiles)
        float_tiles<1, F16>(q, tiles + t * tb, tb, out + t * kIndexTile);
}

// One Q8_0 tile against heads h0 .. h0+NH-1. Per 4-value group: |k| once, then per head
// sign(q, k) and maddubs (|k|·q·sign(k) = k·q; |k|, |q| <= 127 so the int16 pair sums cannot
// saturate), widened to int32 per key; per block scaled by d_k·d_q.
template <int NH>
inline void q8_heads(const IndexQuery& q, int64_t h0, const uint8_t* tile, __m256& score) {
    const int64_t D = q.sdim, nb = D / 32;
    const uint8_t* scales = tile + D * kIndexTile;
    const __m256i ones = _mm256_set1_epi16(1);
    __m256 facc[NH];
    for (int j = 0; j < NH; ++j)
        facc[j] = _mm256_setzero_ps();
    for (int64_t b = 0; b < nb; ++b) {
        const __m256 dk = _mm256_cvtph_ps(
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(scales + b * kIndexTile * 2)));
        __m256i iacc[NH];
        for (int j = 0; j < NH; ++j)
            iacc[j] = _mm256_setzero_si256();
        for (int64_t g = b * 8; g < b * 8 + 8; ++g) {
            const __m256i k = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(tile + g * 32));
            const __m256i ak = _mm256_sign_epi8(k, k);
            for (int j = 0; j < NH; ++j) {
                int32_t q4;
                std::memcpy(&q4, q.q8 + (h0 + j) * D + g * 4, 4);
                const __m256i sq = _mm256_sign_epi8(_mm256_set1_epi32(q4), k);
                iacc[j] = _mm256_add_epi32(iacc[j],
                                           _mm256_madd_epi16(_mm256_maddubs_epi16(ak, sq), ones));
            }
        }
        for (int j = 0; j < NH; ++j)
            facc[j] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(iacc[j]),
                                      _mm256_mul_ps(dk, _mm256_set1_ps(q.q8_d[(h0 + j) * nb + b])),
                                      facc[j]);
    }
    const __m256 zero = _mm256_setzero_ps();
    for (int j = 0; j < NH; ++j)
        score = _mm256_fmadd_ps(_mm256_set1_ps(q.w[h0 + j]), _mm256_max_ps(facc[j], zero), score);
}

// Tiles read ahead of the one being scored: the keys stream from DRAM (a decode step's other
// work evicts them), and the hardware prefetchers alone leave the kernel waiting.
constexpr int64_t kPrefetchTiles = 16;

} // namespace

void index_score_f32(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out) {
    float_score<false>(q, tiles, n_tiles, out);
}

void index_score_f16(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out) {
    float_score<true>(q, tiles, n_tiles, out);
}

void index_score_q8_0(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out) {
    const size_t tb = index_tile_bytes(IndexKeyFormat::Q8_0, q.sdim);
    for (int64_t t = 0; t < n_tiles; ++t) {
        const uint8_t* tile = tiles + t * tb;
        if (t + kPrefetchTiles < n_tiles) {
            const char* ahead = reinterpret_cast<const char*>(tile + kPrefetchTiles * tb);
            for (size_t off = 0; off < tb; off += 64)
                _mm_prefetch(ahead + off, _MM_HINT_T0);
        }
        __m256 score = _mm256_setzero_ps();
        for_head_groups_of_4(q.n_heads, [&](auto nh, int64_t h0) {
            q8_heads<decltype(nh)::value>(q, h0, tile, score);
        });
        _mm256_storeu_ps(out + t * kIndexTile, score);
    }
}

} // namespace folio::avx2
