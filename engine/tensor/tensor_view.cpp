#include "tensor/tensor_view.h"

#include <string>

namespace folio {

TensorView make_tensor_view(DType type, std::array<int64_t, 4> ne, const void* data) {
    TensorView v;
    v.type = type;
    v.ne = ne;
    v.data = data;
    const DTypeTraits t = dtype_traits(type);
    v.nb[0] = t.block_bytes;
    v.nb[1] = dtype_row_bytes(type, static_cast<uint64_t>(ne[0]));
    v.nb[2] = v.nb[1] * static_cast<size_t>(ne[1]);
    v.nb[3] = v.nb[2] * static_cast<size_t>(ne[2]);
    return v;
}

Expected<TensorView> slice_matrix(const TensorView& t, int64_t i2) {
    if (i2 < 0 || i2 >= t.ne[2])
        return make_error(ErrorCode::InvalidArgument, "slice_matrix: index " + std::to_string(i2) +
                                                          " outside [0, " +
                                                          std::to_string(t.ne[2]) + ")");
    TensorView s = t;
    s.data = t.row(0, i2);
    s.ne[2] = 1;
    s.ne[3] = 1;
    s.nb[3] = s.nb[2];
    return s;
}

Expected<TensorView> slice_rows(const TensorView& t, int64_t r0, int64_t r1) {
    if (t.ne[2] != 1 || t.ne[3] != 1 || r0 < 0 || r1 < r0 || r1 > t.ne[1])
        return make_error(ErrorCode::InvalidArgument, "slice_rows: rows [" + std::to_string(r0) +
                                                          ", " + std::to_string(r1) + ") of a " +
                                                          std::to_string(t.ne[1]) + "-row matrix");
    TensorView s = t;
    s.data = t.row(r0);
    s.ne[1] = r1 - r0;
    s.nb[2] = s.nb[1] * static_cast<size_t>(s.ne[1]);
    s.nb[3] = s.nb[2];
    return s;
}

} // namespace folio
