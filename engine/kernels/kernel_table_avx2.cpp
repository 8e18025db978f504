// The AVX2 implementation table. Compiled with -mavx2 -mfma -mf16c; a constant-initialised table
// of function pointers (no code runs to build it).
#include "kernels/kernel_table.h"
#include "kernels/ops_avx2.h"

namespace folio {

namespace {

constexpr KernelTable kAvx2Table = {
    "avx2",       avx2::rms_norm,  avx2::l2_norm,  avx2::softmax, avx2::silu,
    avx2::swiglu, avx2::gelu_tanh, avx2::gelu_erf, avx2::rope,
};

} // namespace

const KernelTable& avx2_kernel_table() {
    return kAvx2Table;
}

} // namespace folio
