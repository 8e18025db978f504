// AVX2 Q8_K activation quantizer (the activation format of the K-quant weights,
// ggml-common.h block_q8_K), byte-identical to the reference quantize_row_q8_k for finite input:
// the same fp32 operations, in the same order per element. Prefill quantizes every token's
// activations once per weight format (and once per routed expert in MoE layers), so the scalar
// loop had become a tenth of Q4_K_M prefill.
#include "kernels/vec_dot_avx2.h"

#include "kernels/avx2_intrinsics.h"
#include "tensor/quant_blocks.h"

#include <immintrin.h>

namespace folio::avx2 {

void quantize_q8_k(const float* x, void* dst, int64_t n) {
    auto* out = static_cast<BlockQ8K*>(dst);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (int64_t b = 0; b < n / kQKK; ++b, x += kQKK) {
        // amax = max |x| (a NaN never wins, as in the reference's `>` test).
        __m256 m = _mm256_setzero_ps();
        for (int j = 0; j < kQKK; j += 8)
            m = _mm256_max_ps(_mm256_andnot_ps(sign, _mm256_loadu_ps(x + j)), m);
        const float amax = hmax(m);
        if (amax == 0) {
            __builtin_memset(&out[b], 0, sizeof out[b]);
            continue;
        }
        // The reference keeps the first element reaching amax, with its sign.
        const __m256 am = _mm256_set1_ps(amax);
        float max = 0;
        for (int j = 0; j < kQKK; j += 8) {
            const int hit = _mm256_movemask_ps(
                _mm256_cmp_ps(_mm256_andnot_ps(sign, _mm256_loadu_ps(x + j)), am, _CMP_EQ_OQ));
            if (hit) {
                max = x[j + __builtin_ctz(static_cast<unsigned>(hit))];
                break;
            }
        }
        const float iscale = -127.0f / max;
        const __m256 is = _mm256_set1_ps(iscale);
        const __m256i cap = _mm256_set1_epi32(127);
        for (int j = 0; j < kQKK; j += 32) {
            // nearest_int (round half to even: the default MXCSR mode of cvtps), then min(127, .).
            __m256i q[4];
            for (int i = 0; i < 4; ++i)
                q[i] = _mm256_min_epi32(
                    _mm256_cvtps_epi32(_mm256_mul_ps(is, _mm256_loadu_ps(x + j + 8 * i))), cap);
            const __m256i p = _mm256_permutevar8x32_epi32(
                _mm256_packs_epi16(_mm256_packs_epi32(q[0], q[1]), _mm256_packs_epi32(q[2], q[3])),
                _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out[b].qs + j), p);
            // bsums of the two 16-byte halves: pair sums, quad sums, then within each 128 bits.
            __m256i s = _mm256_madd_epi16(_mm256_maddubs_epi16(_mm256_set1_epi8(1), p),
                                          _mm256_set1_epi16(1));
            s = _mm256_hadd_epi32(s, s);
            s = _mm256_hadd_epi32(s, s);
            out[b].bsums[j / 16] = static_cast<int16_t>(_mm256_extract_epi32(s, 0));
            out[b].bsums[j / 16 + 1] = static_cast<int16_t>(_mm256_extract_epi32(s, 4));
        }
        out[b].d = 1 / iscale;
    }
}

} // namespace folio::avx2
