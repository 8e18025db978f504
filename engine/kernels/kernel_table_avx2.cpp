// The AVX2 implementation table. Compiled with -mavx2 -mfma -mf16c; a constant-initialised table
// of function pointers (no code runs to build it). The Q8_K activation quantizer is the scalar
// reference one: it is cheap next to the dot products and keeps the bytes identical.
#include "kernels/kernel_table.h"
#include "kernels/ops_avx2.h"
#include "kernels/vec_dot_avx2.h"

namespace folio {

void quantize_row_q8_k(const float* src, void* dst, int64_t n); // tensor/quantize.h

namespace {

constexpr KernelTable kAvx2Table = {
    "avx2",          avx2::dot_f32,       avx2::dot_f16,     avx2::dot_bf16,
    avx2::dot_q8_0,  avx2::dot_q4_0,      avx2::dot_mxfp4,   avx2::dot_q4_k,
    avx2::dot_q6_k,  avx2::quantize_q8_0, quantize_row_q8_k, avx2::rms_norm,
    avx2::l2_norm,   avx2::softmax,       avx2::silu,        avx2::swiglu,
    avx2::gelu_tanh, avx2::gelu_erf,      avx2::rope,
};

} // namespace

const KernelTable& avx2_kernel_table() {
    return kAvx2Table;
}

} // namespace folio
