#include "support/random_data.h"

#include <random>

namespace folio::test {

std::vector<float> random_normal(size_t n, uint32_t seed, float sigma) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.0f, sigma);
    std::vector<float> v(n);
    for (float& x : v)
        x = d(rng);
    return v;
}

} // namespace folio::test
