// AVX2 kernel of the K-quant prefill GEMM for Q2_K .. Q6_K and IQ4_XS, for CPUs without AVX-512
// VNNI (and Q3_K / Q2_K on all; layouts and arithmetic: kernels/gemm_kquant.h; it reads the
// AVX-512 kernel's packed layouts).
//
// Register tile: one duo of 2 weight rows × kTT = 4 tokens. A quad's 64 packed bytes per step are
// two duos of 32 (rows 0-1, rows 2-3), and its 16 scales per group two runs of 8, so a duo's
// data is the quad's at +32 bytes (+8 floats) for the second duo. Per group of 4 sub-blocks and
// step q, one 256-bit load of the duo's unpacked weights (2 rows × 4 sub-blocks × 4 bytes) meets
// a 128-bit broadcast of each token's 4 × 4 activation bytes: vpmaddubsw (the weights are
// unsigned, at most 63, so the pair sums stay below 2^15) and vpmaddwd against ones give the
// 4-product int32 sum of each (row, sub-block) lane; after L/4 steps each lane is one exact
// sub-block sum S_j. Then the float steps of the AVX-512 kernel, lane for lane: the results equal
// the reference (kernels/reference/gemm_kquant_ref.cpp) bit for bit.
//
// IQ4_XS is packed as v + 128 (up to 241), which would overflow vpmaddubsw's int16 pair sums: its
// form flips each loaded byte back to the signed level v (xor 0x80, |v| <= 127) and applies the
// sign trick (|v| against x with v's sign, vpsignb; Q8_K's x is within ±127, so a pair sum stays
// within 2·127², below 2^15); its sums start at 0 and are Σ v·x, the reference's S_j exactly.
// Compiled with -mavx2 -mfma -mf16c (engine/CMakeLists.txt), entered only
// when gemm_kquant_available() on a CPU without the AVX-512 VNNI path. No inline functions with
// external linkage from shared headers (see gemm_q8_0_avx512.cpp).
#include "kernels/avx2_intrinsics.h"
#include "kernels/gemm_avx2_tile.h"
#include "kernels/gemm_kquant.h"

namespace folio::avx2 {

namespace {

constexpr int kTT = kDuoTokens;
constexpr int64_t kSbPerSlice = 1; // super-blocks per K slice: 18 KB of the chunk (L = 32)

// How a type's sums are formed: the min term in float (Q4_K, Q5_K, Q2_K), an integer offset
// folded in from the activations' −offset·B (Q6_K, Q3_K), or signed levels (IQ4_XS).
enum class Form { Mins, Offset, Signed };

// Adds super-blocks [s0, s1) of the duo at w (its quad's data + 32 · (duo mod 2)) against tokens
// x .. x+3 (xs bytes apart) to the float accumulators acc_mem[8·t ..] (in memory between calls so
// the caller can slice K: each lane still sees its super-blocks in order).
template <int L, Form F>
void accumulate(int64_t s0, int64_t s1, const uint8_t* w, const uint8_t* x, size_t xs,
                float* acc_mem) {
    constexpr int kSteps = L / 4, kGroups = 64 / L;
    constexpr bool kMins = F == Form::Mins;
    constexpr size_t kWsb = kquant_weight_sb_bytes(L, kMins);
    constexpr size_t kXsb = kquant_act_sb_bytes(L);
    const __m256i ones = _mm256_set1_epi16(1), flip = _mm256_set1_epi8(static_cast<char>(0x80));
    __m256 acc[kTT];
    for (int t = 0; t < kTT; ++t)
        acc[t] = _mm256_load_ps(acc_mem + 8 * t);
    const uint8_t* ws = w + s0 * kWsb;
    const uint8_t* xsb = x + s0 * kXsb;
    for (int64_t s = s0; s < s1; ++s, ws += kWsb, xsb += kXsb) {
        __m256 u[kTT];
        for (int t = 0; t < kTT; ++t)
            u[t] = _mm256_setzero_ps();
        for (int g = 0; g < kGroups; ++g) {
            // Offset form (Q6_K, Q3_K): the sums start at −offset·B_j.
            __m256i isum[kTT];
            for (int t = 0; t < kTT; ++t)
                isum[t] = F == Form::Offset ? bcast128(xsb + t * xs + 256 + 16 * g)
                                            : _mm256_setzero_si256();
            for (int q = 0; q < kSteps; ++q) {
                const __m256i wq = load256(ws + 64 * (kSteps * g + q));
                // Signed form: the level v = q − 128, |v| as the unsigned operand.
                const __m256i wv = F == Form::Signed ? _mm256_xor_si256(wq, flip) : wq;
                const __m256i wu = F == Form::Signed ? _mm256_abs_epi8(wv) : wq;
                for (int t = 0; t < kTT; ++t) {
                    __m256i xv = bcast128(xsb + t * xs + 16 * (kSteps * g + q));
                    if constexpr (F == Form::Signed)
                        xv = _mm256_sign_epi8(xv, wv);
                    isum[t] = _mm256_add_epi32(
                        isum[t], _mm256_madd_epi16(_mm256_maddubs_epi16(wu, xv), ones));
                    pin(isum[t]);
                }
            }
            const auto* scales = reinterpret_cast<const float*>(ws + 1024);
            const __m256 dsc = _mm256_loadu_ps(scales + 16 * g);
            for (int t = 0; t < kTT; ++t)
                u[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(isum[t]), dsc, u[t]);
            if constexpr (kMins) {
                const __m256 dmn = _mm256_loadu_ps(scales + 16 * (kGroups + g));
                for (int t = 0; t < kTT; ++t) {
                    const __m256 bsum = _mm256_broadcast_ps(
                        reinterpret_cast<const __m128*>(xsb + t * xs + 256 + 16 * g));
                    u[t] = _mm256_fnmadd_ps(dmn, bsum, u[t]);
                }
            }
        }
        for (int t = 0; t < kTT; ++t) {
            const __m256 dx =
                _mm256_set1_ps(*reinterpret_cast<const float*>(xsb + t * xs + 256 + 16 * kGroups));
            acc[t] = _mm256_fmadd_ps(dx, u[t], acc[t]);
        }
    }
    for (int t = 0; t < kTT; ++t)
        _mm256_store_ps(acc_mem + 8 * t, acc[t]);
}

template <int L, Form F>
void chunk(int64_t k, const uint8_t* w_packed, int64_t rows_valid, const uint8_t* x_packed,
           size_t x_stride, int64_t n_tokens, float* y, int64_t y_stride) {
    const int64_t nsb = k / 256;
    const size_t wq_stride = static_cast<size_t>(nsb) * kquant_weight_sb_bytes(L, F == Form::Mins);
    duo_chunk(
        nsb, kSbPerSlice, rows_valid, n_tokens, y, y_stride,
        [&](int64_t s0, int64_t s1, int64_t p, int64_t t0, float* acc) {
            accumulate<L, F>(s0, s1, w_packed + (p / 2) * wq_stride + 32 * (p % 2),
                             x_packed + t0 * x_stride, x_stride, acc);
        },
        [](int64_t, int64_t, const float* acc, float(&res)[kTT][2]) {
            for (int t = 0; t < kTT; ++t)
                duo_sums(_mm256_load_ps(acc + 8 * t), res[t]);
        });
}

} // namespace

void gemm_kquant_chunk_l32(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                           const uint8_t* x_packed, size_t x_stride, int64_t n_tokens, float* y,
                           int64_t y_stride) {
    chunk<32, Form::Mins>(k, w_packed, rows_valid, x_packed, x_stride, n_tokens, y, y_stride);
}

void gemm_kquant_chunk_l16_mins(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                                const uint8_t* x_packed, size_t x_stride, int64_t n_tokens,
                                float* y, int64_t y_stride) {
    chunk<16, Form::Mins>(k, w_packed, rows_valid, x_packed, x_stride, n_tokens, y, y_stride);
}

void gemm_kquant_chunk_l32_signed(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                                  const uint8_t* x_packed, size_t x_stride, int64_t n_tokens,
                                  float* y, int64_t y_stride) {
    chunk<32, Form::Signed>(k, w_packed, rows_valid, x_packed, x_stride, n_tokens, y, y_stride);
}

void gemm_kquant_chunk_l16(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                           const uint8_t* x_packed, size_t x_stride, int64_t n_tokens, float* y,
                           int64_t y_stride) {
    chunk<16, Form::Offset>(k, w_packed, rows_valid, x_packed, x_stride, n_tokens, y, y_stride);
}

} // namespace folio::avx2
