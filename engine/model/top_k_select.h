#pragma once
// Top-k selection over the DSA indexer's scores (MODEL_SPEC.md §5.2): which past keys a query
// attends to. O(n) per query, with a plain reference of the same rule for the tests.

#include <cstdint>
#include <utility>
#include <vector>

namespace folio {

// Scratch of select_top_k (reused between calls).
struct TopKScratch {
    std::vector<uint32_t> sample, key, hist;
    std::vector<int32_t> pos;
};

// Positions of the k largest of n scores (min(k, n) of them), in ascending order, written to
// out. Order: higher score first, ties go to the lower position (-0.0 equals +0.0; a NaN ranks
// below every number, where the reference's order is unspecified). O(n): a threshold from a strided
// sample, one scan that keeps the scores at or above it, and a radix select (11/11/10 bits) among
// those; every score when the guess keeps fewer than k.
void select_top_k(const float* scores, int64_t n, int64_t k, TopKScratch& work, int32_t* out);

// The plain reference of the same rule: nth_element over (score, position) pairs + one scan.
void select_top_k_reference(const float* scores, int64_t n, int64_t k,
                            std::vector<std::pair<float, int32_t>>& work, int32_t* out);

} // namespace folio
