// The scalar reference implementation of every row kernel.
#include "kernels/kernel_table.h"
#include "kernels/reference/ops_ref.h"

namespace folio {

const KernelTable& reference_kernel_table() {
    static const KernelTable table = {
        "reference", ref::rms_norm,  ref::l2_norm,  ref::softmax, ref::silu,
        ref::swiglu, ref::gelu_tanh, ref::gelu_erf, ref::rope,
    };
    return table;
}

} // namespace folio
