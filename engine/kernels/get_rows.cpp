#include "kernels/get_rows.h"

#include "kernels/parallel.h"
#include "kernels/weight_rows.h"

#include <string>

namespace folio {

Status get_rows(const KernelContext& ctx, const TensorView& w, const int32_t* ids, int64_t n_ids,
                float* out, int64_t out_stride) {
    FOLIO_CHECK(check_tensor_view(w, "get_rows"));
    for (int64_t i = 0; i < n_ids; ++i)
        if (ids[i] < 0 || ids[i] >= w.ne[1])
            return make_error(ErrorCode::InvalidArgument, "get_rows: id " + std::to_string(ids[i]) +
                                                              " at index " + std::to_string(i) +
                                                              " is outside [0, " +
                                                              std::to_string(w.ne[1]) + ")");
    // Types and shapes were checked above, so dequantize_row cannot fail here.
    parallel_rows(ctx, n_ids, w.ne[0], [&](int64_t i) {
        (void)dequantize_row(w.type, w.row(ids[i]), out + i * out_stride, w.ne[0]);
    });
    return {};
}

} // namespace folio
