#pragma once
// One row through the reference dequantizer / quantizer of a weight type, for the tensor tests;
// a failure aborts the test binary with the engine's message (the inputs are the test's own).

#include "tensor/dtype.h"

#include <cstdint>
#include <vector>

namespace folio::test {

std::vector<float> dequant(DType t, const void* src, int64_t n);
std::vector<uint8_t> quant(DType t, const std::vector<float>& x);

} // namespace folio::test
