#pragma once
// Reproducible random inputs for kernel and model tests.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace folio::test {

// n values from N(0, sigma²), the same for the same seed (std::mt19937 +
// std::normal_distribution, as libstdc++ computes it).
std::vector<float> random_normal(size_t n, uint32_t seed, float sigma = 1.0f);

} // namespace folio::test
