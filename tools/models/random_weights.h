#pragma once
// Deterministic random tensors for generated test models. Values depend only on (seed, tensor
// name, element index), never on thread count, so a model file is reproducible bit for bit.

#include <cstdint>
#include <string_view>
#include <vector>

namespace folio::tools {

// Fills `out` with N(mean, stddev²) samples for the tensor called `name`.
void fill_normal(std::vector<float>& out, uint64_t seed, std::string_view name, float mean,
                 float stddev);

} // namespace folio::tools
