// AVX2 + FMA + F16C Q4_K and Q5_K × Q8_K dots (declared in vec_dot_avx2.h and
// vec_dot_more_avx2.h). Both formats share d, dmin and the 12 bytes of 6-bit scales and mins
// (tensor/quant_blocks.h q4k_scales_mins); Q5_K adds a fifth bit per value from qh. One kernel
// over the unpack step: per 32-byte chunk c of nibbles, maddubs + madd by the sub-block scales
// gives exact int32 lane sums, then d·Σ and dmin·Σ mins·bsums in two FMAs per super-block.
// Internal linkage only, like vec_dot_avx2.cpp.
#include "kernels/avx2_intrinsics.h"
#include "kernels/decode_prefetch.h"
#include "kernels/nx_dispatch.h"
#include "kernels/vec_dot_avx2.h"
#include "kernels/vec_dot_more_avx2.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

namespace folio::avx2 {

namespace {

// Q4_K: the values of chunk c are its 32 bytes' low nibbles (sub-block 2c) and high nibbles
// (sub-block 2c + 1).
struct Q4KUnpack {
    using Block = BlockQ4K;
    static constexpr bool kPrefetch = true;
    explicit Q4KUnpack(const Block&) {}
    void values(__m256i q, int /*c*/, __m256i m4, __m256i* lo, __m256i* hi) const {
        *lo = _mm256_and_si256(q, m4);
        *hi = _mm256_and_si256(_mm256_srli_epi16(q, 4), m4);
    }
};

// Q5_K: Q4_K's nibbles plus 16 where the fifth bit is set: bit 2c of qh byte l for value l of
// chunk c's low nibbles, bit 2c + 1 for its high nibbles.
struct Q5KUnpack {
    using Block = BlockQ5K;
    static constexpr bool kPrefetch = false;
    __m256i hb;
    explicit Q5KUnpack(const Block& wb) : hb(load256(wb.qh)) {}
    void values(__m256i q, int c, __m256i m4, __m256i* lo, __m256i* hi) const {
        const __m256i m1 = _mm256_set1_epi8(1);
        *lo = _mm256_or_si256(_mm256_and_si256(q, m4),
                              _mm256_slli_epi16(_mm256_and_si256(shift_right16(hb, 2 * c), m1), 4));
        *hi = _mm256_or_si256(
            _mm256_and_si256(_mm256_srli_epi16(q, 4), m4),
            _mm256_slli_epi16(_mm256_and_si256(shift_right16(hb, 2 * c + 1), m1), 4));
    }
};

template <typename Unpack, int NX>
void dot_q4k_family_n(int64_t nb, const typename Unpack::Block* w, const void* x, size_t xs,
                      float* out, int64_t os) {
    const BlockQ8K* xr[NX];
    __m256 acc[NX];
    for (int j = 0; j < NX; ++j) {
        xr[j] = x_row<BlockQ8K>(x, xs, j);
        acc[j] = _mm256_setzero_ps();
    }
    const __m256i m4 = _mm256_set1_epi8(0x0F);
    for (int64_t b = 0; b < nb; ++b) {
        const auto& wb = w[b];
        if constexpr (Unpack::kPrefetch)
            prefetch_ahead<NX>(&wb, 3);
        uint32_t u[4]; // get_scale_min_k4 of ggml-quants.c: bytes 0..7 = scales, 8..15 = mins
        q4k_scales_mins(wb.scales, u);
        const __m128i sm = _mm_loadu_si128(reinterpret_cast<const __m128i*>(u));
        // Scales as int16 in both 128-bit lanes; mins duplicated per pair of 16-element bsums.
        const __m256i sc16 = _mm256_broadcastsi128_si256(_mm_cvtepu8_epi16(sm));
        const __m256i mins16 = _mm256_cvtepu8_epi16(_mm_unpackhi_epi8(sm, sm));
        const Unpack unpack(wb);

        __m256i isum[NX];
        for (int j = 0; j < NX; ++j)
            isum[j] = _mm256_setzero_si256();
        for (int c = 0; c < 4; ++c) {
            __m256i lo, hi;
            unpack.values(load256(wb.qs + 32 * c), c, m4, &lo, &hi);
            const __m256i s_lo = _mm256_shuffle_epi8(
                sc16, _mm256_set1_epi16(static_cast<short>((4 * c + 1) << 8 | (4 * c))));
            const __m256i s_hi = _mm256_shuffle_epi8(
                sc16, _mm256_set1_epi16(static_cast<short>((4 * c + 3) << 8 | (4 * c + 2))));
            for (int j = 0; j < NX; ++j) {
                const int8_t* xq = xr[j][b].qs + 64 * c;
                const __m256i p_lo = _mm256_madd_epi16(_mm256_maddubs_epi16(lo, load256(xq)), s_lo);
                const __m256i p_hi =
                    _mm256_madd_epi16(_mm256_maddubs_epi16(hi, load256(xq + 32)), s_hi);
                isum[j] = _mm256_add_epi32(isum[j], _mm256_add_epi32(p_lo, p_hi));
            }
        }
        kquant_dmin_step<NX>(xr, b, wb.d, wb.dmin, mins16, isum, acc);
    }
    for (int j = 0; j < NX; ++j)
        out[j * os] = hsum(acc[j]);
}

template <typename Unpack> struct Q4KFamily {
    template <int NX> struct Fn {
        static void run(int64_t k, const void* w, const void* x, size_t xs, float* out,
                        int64_t os) {
            dot_q4k_family_n<Unpack, NX>(k / kQKK, static_cast<const typename Unpack::Block*>(w), x,
                                         xs, out, os);
        }
    };
};

} // namespace

void dot_q4_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<Q4KFamily<Q4KUnpack>::Fn>(nx, k, w, x, xs, out, os);
}

void dot_q5_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<Q4KFamily<Q5KUnpack>::Fn>(nx, k, w, x, xs, out, os);
}

} // namespace folio::avx2
