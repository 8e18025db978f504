#pragma once
// A non-owning view of a tensor in ggml layout (ggml's docs/gguf.md): ne[0] is the
// contiguous dimension, quantization blocks run along ne[0], nb[] are byte strides. GGUF tensors
// (gguf::TensorInfo: type, ne, data) map onto it with tensor_view_of(info).

#include "folio/error.h"
#include "tensor/dtype.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace folio {

struct TensorView {
    DType type = DType::F32;
    std::array<int64_t, 4> ne{1, 1, 1, 1};
    const void* data = nullptr;
    std::array<size_t, 4> nb{0, 0, 0, 0};

    int64_t n_elements() const { return ne[0] * ne[1] * ne[2] * ne[3]; }
    size_t row_bytes() const { return dtype_row_bytes(type, static_cast<uint64_t>(ne[0])); }
    // Start of row i1 of matrix (i2, i3).
    const uint8_t* row(int64_t i1, int64_t i2 = 0, int64_t i3 = 0) const {
        return static_cast<const uint8_t*>(data) + i1 * nb[1] + i2 * nb[2] + i3 * nb[3];
    }
};

// Contiguous view with ggml's strides: nb[0] = type_size, nb[1] = row bytes, nb[i] =
// nb[i-1]·ne[i-1].
TensorView make_tensor_view(DType type, std::array<int64_t, 4> ne, const void* data);

// Any record with `type`, `ne` and `data` members (gguf::TensorInfo) -> contiguous view.
template <typename Info> TensorView tensor_view_of(const Info& info) {
    return make_tensor_view(info.type, info.ne, info.data);
}

// 2-D slice (ne[0], ne[1]) number i2 of a 3-D tensor, e.g. expert e of [K, N, E] experts: pure
// pointer arithmetic, no copy. Error if i2 is out of range.
Expected<TensorView> slice_matrix(const TensorView& t, int64_t i2);

// Rows [r0, r1) of a 2-D view (ne[2] = ne[3] = 1): pointer arithmetic, no copy. Error if the
// range is not inside [0, ne[1]].
Expected<TensorView> slice_rows(const TensorView& t, int64_t r0, int64_t r1);

// check_tensor_view (a computable type and a well-formed shape): kernels/weight_rows.h.

} // namespace folio
