#include "model/layer/weight_binder.h"

#include "kernels/weight_rows.h"

#include <array>
#include <sstream>

namespace folio {

namespace {

std::string shape_text(const std::array<int64_t, 4>& ne, size_t n) {
    std::ostringstream s;
    s << "[";
    for (size_t i = 0; i < n; ++i)
        s << (i ? ", " : "") << ne[i];
    s << "]";
    return s.str();
}

} // namespace

Expected<TensorView> WeightBinder::get(const std::string& name, std::vector<int64_t> expect,
                                       bool optional) const {
    const gguf::TensorInfo* t = f.find_tensor(name);
    if (t == nullptr) {
        if (optional)
            return TensorView{};
        return make_error(ErrorCode::Format, f.path() + ": tensor '" + name + "' is missing");
    }
    std::array<int64_t, 4> want{1, 1, 1, 1};
    for (size_t i = 0; i < expect.size(); ++i)
        want[i] = expect[i];
    if (t->ne != want)
        return make_error(ErrorCode::Format,
                          f.path() + ": tensor '" + name + "' has shape " + shape_text(t->ne, 4) +
                              ", but the metadata implies " + shape_text(want, 4));
    if (!dtype_is_computable(t->type))
        return make_error(ErrorCode::Unsupported, f.path() + ": tensor '" + name + "' has type " +
                                                      std::string(dtype_name(t->type)) +
                                                      ", which Folio cannot compute with yet");
    return device.place_weight(tensor_view_of(*t), t->size_bytes);
}

Expected<TensorView> WeightBinder::get_f32(const std::string& name, std::vector<int64_t> expect,
                                           bool optional) const {
    FOLIO_TRY(v, get(name, std::move(expect), optional));
    if (v.data != nullptr && v.type != DType::F32)
        return make_error(ErrorCode::Unsupported,
                          f.path() + ": tensor '" + name + "' must be f32, is " +
                              std::string(dtype_name(v.type)) +
                              " (Folio reads it as plain floats; requantize the model keeping "
                              "1-D tensors, biases and convolution weights in f32, as "
                              "llama-quantize does)");
    return v;
}

} // namespace folio
