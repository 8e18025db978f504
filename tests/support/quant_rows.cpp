#include "support/quant_rows.h"

#include "kernels/weight_rows.h"

#include <QtGlobal>

namespace folio::test {

std::vector<float> dequant(DType t, const void* src, int64_t n) {
    std::vector<float> y(static_cast<size_t>(n));
    auto st = dequantize_row(t, src, y.data(), n);
    if (!st)
        qFatal("dequantize_row failed: %s", st.error().message.c_str());
    return y;
}

std::vector<uint8_t> quant(DType t, const std::vector<float>& x) {
    std::vector<uint8_t> q(dtype_row_bytes(t, x.size()));
    auto st = quantize_row(t, x.data(), q.data(), static_cast<int64_t>(x.size()));
    if (!st)
        qFatal("quantize_row failed: %s", st.error().message.c_str());
    return q;
}

} // namespace folio::test
