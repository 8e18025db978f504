#include "kernels/weight_rows.h"

#include "kernels/weight_types.h"

#include <string>

namespace folio {

bool dtype_is_computable(DType type) {
    return find_weight_type(type) != nullptr;
}

static Status check_row(DType type, int64_t n, const char* what) {
    if (!dtype_is_computable(type))
        return make_error(ErrorCode::Unsupported, std::string(what) + ": tensor type " +
                                                      std::string(dtype_name(type)) +
                                                      " is not supported");
    const int64_t bs = dtype_block(type).size;
    if (n < 0 || n % bs != 0)
        return make_error(ErrorCode::InvalidArgument,
                          std::string(what) + ": row of " + std::to_string(n) +
                              " elements is not a multiple of the " +
                              std::string(dtype_name(type)) + " block size " + std::to_string(bs));
    return {};
}

Status dequantize_row(DType type, const void* src, float* dst, int64_t n) {
    FOLIO_CHECK(check_row(type, n, "dequantize_row"));
    find_weight_type(type)->dequantize(src, dst, n);
    return {};
}

Status quantize_row(DType type, const float* src, void* dst, int64_t n) {
    FOLIO_CHECK(check_row(type, n, "quantize_row"));
    const WeightType* w = find_weight_type(type);
    if (w->quantize == nullptr)
        return make_error(ErrorCode::Unsupported, "quantize_row: Folio has no quantizer for " +
                                                      std::string(dtype_name(type)));
    w->quantize(src, dst, n);
    return {};
}

Status check_tensor_view(const TensorView& t, const char* what) {
    if (!dtype_is_computable(t.type))
        return make_error(ErrorCode::Unsupported, std::string(what) + ": tensor type " +
                                                      std::string(dtype_name(t.type)) +
                                                      " is not supported by the kernels");
    for (int64_t n : t.ne)
        if (n < 0)
            return make_error(ErrorCode::InvalidArgument,
                              std::string(what) + ": negative dimension");
    const int64_t bs = dtype_block(t.type).size;
    if (t.ne[0] % bs != 0)
        return make_error(ErrorCode::InvalidArgument,
                          std::string(what) + ": ne[0] = " + std::to_string(t.ne[0]) +
                              " is not a multiple of the " + std::string(dtype_name(t.type)) +
                              " block size " + std::to_string(bs));
    if (t.data == nullptr && t.n_elements() > 0)
        return make_error(ErrorCode::InvalidArgument, std::string(what) + ": null data");
    return {};
}

} // namespace folio
