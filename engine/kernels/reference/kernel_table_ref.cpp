// The scalar reference implementation of every row kernel.
#include "kernels/kernel_table.h"
#include "kernels/reference/ops_ref.h"
#include "kernels/reference/vec_dot_ref.h"
#include "tensor/quantize.h"

namespace folio {

const KernelTable& reference_kernel_table() {
    static const KernelTable table = {
        "reference",       ref::dot_f32,   ref::dot_f16,  ref::dot_bf16, ref::dot_q8_0,
        ref::dot_q4_0,     ref::dot_mxfp4, ref::dot_q4_k, ref::dot_q6_k, quantize_row_q8_0_act,
        quantize_row_q8_k, ref::rms_norm,  ref::l2_norm,  ref::softmax,  ref::silu,
        ref::swiglu,       ref::gelu_tanh, ref::gelu_erf, ref::rope,
    };
    return table;
}

} // namespace folio
