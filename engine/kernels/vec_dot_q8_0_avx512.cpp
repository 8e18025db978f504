// AVX-512 Q8_0 × Q8_0 and (rows below kQ5_0Blocks4MinK values) Q5_0 × Q8_0 dot products of the
// decode path (kernels/vec_dot_avx512.h), equal bit for bit to the AVX2 kernels: the same exact
// int32 sums per block, the same float steps. Longer Q5_0 rows go to vec_dot_nibbles_avx512.cpp.
//
// Compiled with -mavx512f -mavx512vl -mavx512bw -mavx512vnni (engine/CMakeLists.txt), entered only
// after the run-time CPU check. No inline functions with external linkage from shared headers
// (see gemm_q8_0_avx512.cpp); avx2_intrinsics.h and nx_dispatch.h have internal linkage.
#include "kernels/vec_dot_avx512.h"

#include "kernels/decode_prefetch.h"
#include "kernels/kernel_table.h"
#include "kernels/nx_dispatch.h"

#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

#include "kernels/avx512_intrinsics.h"

#include "kernels/avx2_intrinsics.h"

namespace folio::avx512 {

namespace {

using avx2::hsum; // the AVX2 kernels' reduction order

// ---- Q8_0 × Q8_0 ------------------------------------------------------------------------------
// The AVX2 kernel (vec_dot_avx2.cpp dot_blocks32) reduces each block's 32 products to one exact
// int32 (sign, maddubs, madd, then a horizontal-add tree over 4 blocks), converts the 4 sums once
// and adds them times d_w·d_x with one 128-bit FMA: too slow for two threads to reach the read
// bandwidth but on fast machines. Here two blocks go through one 512-bit
// register: |w| (vpabsb: -128 becomes 128 as an unsigned byte), the activations negated under
// the weights' sign mask (vpmovb2m; Q8_0 activations lie in -127..127), one vpdpbusd (every
// 4-byte sum exact, as maddubs + madd were), and a shuffle-add tree takes the 4 blocks' 8-lane
// sums to their 4 int32: the AVX2 kernel's exact block sums, then its float steps, so the
// results are equal bit for bit.

inline __m512i two_blocks_qs(const int8_t* a, const int8_t* b) {
    return _mm512_inserti64x4(
        _mm512_castsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a))),
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b)), 1);
}

// Σ over each block's 8 lanes: p01 holds blocks b (lanes 0-7) and b+1, p23 blocks b+2 and b+3.
inline __m128i block_sums4(__m512i p01, __m512i p23, __m512i pick) {
    const __m512i t = _mm512_add_epi32(_mm512_shuffle_i64x2(p01, p23, _MM_SHUFFLE(2, 0, 2, 0)),
                                       _mm512_shuffle_i64x2(p01, p23, _MM_SHUFFLE(3, 1, 3, 1)));
    const __m512i t2 = _mm512_add_epi32(t, _mm512_shuffle_epi32(t, _MM_PERM_BADC));
    const __m512i t3 = _mm512_add_epi32(t2, _mm512_shuffle_epi32(t2, _MM_PERM_CDAB));
    return _mm512_castsi512_si128(_mm512_permutexvar_epi32(pick, t3));
}

template <int NX>
[[gnu::always_inline]] inline void dot_q8_0_n(int64_t k, const BlockQ8_0* w, const void* x,
                                              size_t xs, float* out, int64_t os) {
    const int64_t nb = k / 32;
    const size_t scales_at = q8_0_act_layout(k).scales;
    const BlockQ8_0* xb[NX];
    const float* xd[NX];
    __m128 acc[NX];
    for (int j = 0; j < NX; ++j) {
        xb[j] = reinterpret_cast<const BlockQ8_0*>(static_cast<const uint8_t*>(x) + j * xs);
        xd[j] = reinterpret_cast<const float*>(reinterpret_cast<const uint8_t*>(xb[j]) + scales_at);
        acc[j] = _mm_setzero_ps();
    }
    const __m512i zero = _mm512_setzero_si512();
    const __m512i pick = _mm512_castsi128_si512(_mm_setr_epi32(0, 4, 8, 12));
    int64_t b = 0;
    for (; b + 4 <= nb; b += 4) {
        prefetch_ahead<NX>(w + b, 3); // 136 bytes
        const __m512i w01 = two_blocks_qs(w[b].qs, w[b + 1].qs);
        const __m512i w23 = two_blocks_qs(w[b + 2].qs, w[b + 3].qs);
        const __m512i a01 = _mm512_abs_epi8(w01), a23 = _mm512_abs_epi8(w23);
        const __mmask64 neg01 = _mm512_movepi8_mask(w01), neg23 = _mm512_movepi8_mask(w23);
        const __m128 dw = _mm_cvtph_ps(_mm_setr_epi16(
            static_cast<short>(w[b].d), static_cast<short>(w[b + 1].d),
            static_cast<short>(w[b + 2].d), static_cast<short>(w[b + 3].d), 0, 0, 0, 0));
        for (int j = 0; j < NX; ++j) {
            const __m512i x01 = two_blocks_qs(xb[j][b].qs, xb[j][b + 1].qs);
            const __m512i x23 = two_blocks_qs(xb[j][b + 2].qs, xb[j][b + 3].qs);
            const __m512i p01 =
                _mm512_dpbusd_epi32(zero, a01, _mm512_mask_sub_epi8(x01, neg01, zero, x01));
            const __m512i p23 =
                _mm512_dpbusd_epi32(zero, a23, _mm512_mask_sub_epi8(x23, neg23, zero, x23));
            const __m128 d = _mm_mul_ps(dw, _mm_loadu_ps(xd[j] + b));
            acc[j] = _mm_fmadd_ps(d, _mm_cvtepi32_ps(block_sums4(p01, p23, pick)), acc[j]);
        }
    }
    float tail[NX] = {};
    for (; b < nb; ++b) {
        const float dw = _cvtsh_ss(w[b].d);
        const __m256i qw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w[b].qs));
        const __m256i aw = _mm256_abs_epi8(qw);
        const __mmask32 neg = _mm256_movepi8_mask(qw);
        for (int j = 0; j < NX; ++j) {
            const __m256i xq = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xb[j][b].qs));
            const __m256i z = _mm256_setzero_si256();
            const __m256i p = _mm256_dpbusd_epi32(z, aw, _mm256_mask_sub_epi8(xq, neg, z, xq));
            const __m128i h =
                _mm_add_epi32(_mm256_castsi256_si128(p), _mm256_extracti128_si256(p, 1));
            const __m128i h2 = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0x4E));
            const int isum = _mm_cvtsi128_si32(_mm_add_epi32(h2, _mm_shuffle_epi32(h2, 0xB1)));
            tail[j] += dw * xd[j][b] * static_cast<float>(isum);
        }
    }
    for (int j = 0; j < NX; ++j) {
        __m128 s = _mm_add_ps(acc[j], _mm_movehl_ps(acc[j], acc[j]));
        s = _mm_add_ss(s, _mm_movehdup_ps(s));
        out[j * os] = _mm_cvtss_f32(s) + tail[j];
    }
}

// ---- Q5_0 × Q8_0 ------------------------------------------------------------------------------
// The AVX2 kernel (vec_dot_more_avx2.cpp dot32_n with DecQ5_0) builds the 32 signed weights
// q = u − 16 (u = nibble | fifth bit << 4) per block and takes int32 lanes of 4 products each with
// sign / maddubs / madd: ~20 instructions per 22-byte block, far below the read bandwidth. Here two
// blocks go through one 512-bit register: the fifth bits are one masked move (the two 32-bit qh
// words are the mask), and vpdpbusd gives Σ u·x per lane, from which 16·Σ x (vpdpbusd of 16s) is
// taken: the AVX2 kernel's lane sums exactly. The float steps stay the AVX2 kernel's, block after
// block, so the results are equal bit for bit.

// u of blocks b, b+1 as [u_b | u_b+1], 32 bytes each (elements 0..15 low nibbles, 16..31 high).
inline __m512i q5_0_pair(const BlockQ5_0& b0, const BlockQ5_0& b1) {
    const __m128i m4 = _mm_set1_epi8(0x0F);
    const __m256i v = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b0.qs))),
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(b1.qs)), 1);
    const __m256i m4y = _mm256_broadcastsi128_si256(m4);
    const __m256i lo = _mm256_and_si256(v, m4y);                       // lo_b | lo_b+1
    const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), m4y); // hi_b | hi_b+1
    const __m512i z = _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
    const __m512i nib = _mm512_shuffle_i64x2(z, z, _MM_SHUFFLE(3, 1, 2, 0)); // lo_b hi_b lo hi
    uint32_t h0, h1;
    __builtin_memcpy(&h0, b0.qh, 4);
    __builtin_memcpy(&h1, b1.qh, 4);
    const __mmask64 fifth = static_cast<__mmask64>(h0) | (static_cast<__mmask64>(h1) << 32);
    return _mm512_or_si512(nib, _mm512_maskz_mov_epi8(fifth, _mm512_set1_epi8(0x10)));
}

// u of one block (the odd last one).
inline __m256i q5_0_one(const BlockQ5_0& b) {
    const __m128i m4 = _mm_set1_epi8(0x0F);
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.qs));
    const __m256i nib = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_and_si128(v, m4)),
                                                _mm_and_si128(_mm_srli_epi16(v, 4), m4), 1);
    uint32_t h;
    __builtin_memcpy(&h, b.qh, 4);
    return _mm256_or_si256(
        nib, _mm256_maskz_mov_epi8(static_cast<__mmask32>(h), _mm256_set1_epi8(0x10)));
}

template <int NX>
void dot_q5_0_n(int64_t nb, const BlockQ5_0* w, const void* x, size_t xs, float* out, int64_t os) {
    const BlockQ8_0* xr[NX];
    __m256 acc[NX];
    for (int j = 0; j < NX; ++j) {
        xr[j] = reinterpret_cast<const BlockQ8_0*>(static_cast<const uint8_t*>(x) + j * xs);
        acc[j] = _mm256_setzero_ps();
    }
    const __m512i sixteen = _mm512_set1_epi8(16);
    int64_t b = 0;
    for (; b + 2 <= nb; b += 2) {
        const __m512i u = q5_0_pair(w[b], w[b + 1]);
        const float dw0 = _cvtsh_ss(w[b].d), dw1 = _cvtsh_ss(w[b + 1].d);
        for (int j = 0; j < NX; ++j) {
            const __m512i xq = _mm512_inserti64x4(
                _mm512_castsi256_si512(
                    _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xr[j][b].qs))),
                _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xr[j][b + 1].qs)), 1);
            const __m512i zero = _mm512_setzero_si512();
            const __m512i lanes = _mm512_sub_epi32(_mm512_dpbusd_epi32(zero, u, xq),
                                                   _mm512_dpbusd_epi32(zero, sixteen, xq));
            acc[j] = _mm256_fmadd_ps(_mm256_set1_ps(dw0 * _cvtsh_ss(xr[j][b].d)),
                                     _mm256_cvtepi32_ps(_mm512_castsi512_si256(lanes)), acc[j]);
            acc[j] =
                _mm256_fmadd_ps(_mm256_set1_ps(dw1 * _cvtsh_ss(xr[j][b + 1].d)),
                                _mm256_cvtepi32_ps(_mm512_extracti64x4_epi64(lanes, 1)), acc[j]);
        }
    }
    if (b < nb) {
        const __m256i u = q5_0_one(w[b]);
        const float dw = _cvtsh_ss(w[b].d);
        for (int j = 0; j < NX; ++j) {
            const __m256i xq = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xr[j][b].qs));
            const __m256i zero = _mm256_setzero_si256();
            const __m256i lanes =
                _mm256_sub_epi32(_mm256_dpbusd_epi32(zero, u, xq),
                                 _mm256_dpbusd_epi32(zero, _mm256_set1_epi8(16), xq));
            acc[j] = _mm256_fmadd_ps(_mm256_set1_ps(dw * _cvtsh_ss(xr[j][b].d)),
                                     _mm256_cvtepi32_ps(lanes), acc[j]);
        }
    }
    for (int j = 0; j < NX; ++j)
        out[j * os] = hsum(acc[j]) + 0.0f; // as the AVX2 kernel (its min term is 0 for Q5_0)
}

// NW Q5_0 weight rows (w_stride bytes apart) against one activation row, each row's steps
// dot_q5_0_n<1>'s: the activation blocks and their 16·Σx are loaded and formed once for all rows.
// For decode's short rows (W_UK slices are K = dn: 64, two blocks, on the bench shape) the
// per-call work was most of the time. (The same scheme for Q4_K made the expert matvecs slower
// and is not used; docs/NUMERICS.md.)
template <int NW>
void dot_q5_0_rows_n(int64_t nb, const uint8_t* w, size_t w_stride, const BlockQ8_0* x,
                     float* out) {
    const BlockQ5_0* wr[NW];
    __m256 acc[NW];
    for (int r = 0; r < NW; ++r) {
        wr[r] = reinterpret_cast<const BlockQ5_0*>(w + r * w_stride);
        acc[r] = _mm256_setzero_ps();
    }
    const __m512i sixteen = _mm512_set1_epi8(16);
    // Decode streams the NW rows (contiguous in a matvec): their lines kDecodePrefetchBytes
    // ahead, spread over the steps.
    const auto* ahead = w + kDecodePrefetchBytes;
    const int64_t lines = (NW * static_cast<int64_t>(w_stride) + 63) / 64;
    const int64_t per_step = (lines + (nb + 1) / 2 - 1) / ((nb + 1) / 2);
    int64_t line = 0;
    int64_t b = 0;
    for (; b + 2 <= nb; b += 2) {
        for (int64_t i = 0; i < per_step && line < lines; ++i, ++line)
            _mm_prefetch(reinterpret_cast<const char*>(ahead + 64 * line), _MM_HINT_T0);
        const __m512i xq = _mm512_inserti64x4(
            _mm512_castsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[b].qs))),
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[b + 1].qs)), 1);
        const __m512i zero = _mm512_setzero_si512();
        const __m512i x16 = _mm512_dpbusd_epi32(zero, sixteen, xq);
        const float dx0 = _cvtsh_ss(x[b].d), dx1 = _cvtsh_ss(x[b + 1].d);
        for (int r = 0; r < NW; ++r) {
            const __m512i lanes = _mm512_sub_epi32(
                _mm512_dpbusd_epi32(zero, q5_0_pair(wr[r][b], wr[r][b + 1]), xq), x16);
            acc[r] = _mm256_fmadd_ps(_mm256_set1_ps(_cvtsh_ss(wr[r][b].d) * dx0),
                                     _mm256_cvtepi32_ps(_mm512_castsi512_si256(lanes)), acc[r]);
            acc[r] =
                _mm256_fmadd_ps(_mm256_set1_ps(_cvtsh_ss(wr[r][b + 1].d) * dx1),
                                _mm256_cvtepi32_ps(_mm512_extracti64x4_epi64(lanes, 1)), acc[r]);
        }
    }
    if (b < nb) {
        for (; line < lines; ++line)
            _mm_prefetch(reinterpret_cast<const char*>(ahead + 64 * line), _MM_HINT_T0);
        const __m256i xq = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[b].qs));
        const __m256i zero = _mm256_setzero_si256();
        const __m256i x16 = _mm256_dpbusd_epi32(zero, _mm256_set1_epi8(16), xq);
        const float dx = _cvtsh_ss(x[b].d);
        for (int r = 0; r < NW; ++r) {
            const __m256i lanes =
                _mm256_sub_epi32(_mm256_dpbusd_epi32(zero, q5_0_one(wr[r][b]), xq), x16);
            acc[r] = _mm256_fmadd_ps(_mm256_set1_ps(_cvtsh_ss(wr[r][b].d) * dx),
                                     _mm256_cvtepi32_ps(lanes), acc[r]);
        }
    }
    for (int r = 0; r < NW; ++r)
        out[r] = hsum(acc[r]) + 0.0f;
}

} // namespace

void dot_q8_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    const auto* wb = static_cast<const BlockQ8_0*>(w);
    by_nx(nx, [&](auto n) { dot_q8_0_n<n()>(k, wb, x, xs, out, os); });
}

void dot_q8_0_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out) {
    for (int r = 0; r < nw; ++r)
        dot_q8_0_n<1>(
            k, reinterpret_cast<const BlockQ8_0*>(static_cast<const uint8_t*>(w) + r * w_stride), x,
            0, out + r, 1);
}

void dot_q5_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    if (k >= kQ5_0Blocks4MinK)
        return dot_q5_0_blocks4(k, w, x, xs, nx, out, os);
    const auto* wb = static_cast<const BlockQ5_0*>(w);
    by_nx(nx, [&](auto n) { dot_q5_0_n<n()>(k / 32, wb, x, xs, out, os); });
}

void dot_q5_0_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out) {
    const auto* wr = static_cast<const uint8_t*>(w);
    if (k >= kQ5_0Blocks4MinK) {
        for (int r = 0; r < nw; ++r)
            dot_q5_0_blocks4(k, wr + r * w_stride, x, 0, 1, out + r, 1);
        return;
    }
    const auto* xb = static_cast<const BlockQ8_0*>(x);
    by_nx(nw, [&](auto n) { dot_q5_0_rows_n<n()>(k / 32, wr, w_stride, xb, out); });
}

} // namespace folio::avx512
