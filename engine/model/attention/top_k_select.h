#pragma once
// Top-k selection over the DSA indexer's scores (DeepSeek-V3.2-Exp): which past keys a query
// attends to. O(n) per query, with a plain reference of the same rule for the tests.

#include <cstdint>
#include <utility>
#include <vector>

namespace folio {

// The scores of positions [begin, end) that can be among the top k of all n scores: every score
// of the range whose order key is >= threshold (threshold 0: every score), in ascending position.
struct TopKCandidates {
    std::vector<uint32_t> key; // order keys (scores mapped to unsigned, in score order)
    std::vector<int32_t> pos;
    std::vector<uint32_t> sample;
    int64_t begin = 0, end = 0, count = 0;
    uint32_t threshold = 0;
};

// Scratch of select_top_k (reused between calls).
struct TopKScratch {
    TopKCandidates candidates;
    std::vector<uint32_t> hist;
};

// Positions of the k largest of n scores (min(k, n) of them), in ascending order, written to
// out. Order: higher score first, ties go to the lower position (-0.0 equals +0.0; a NaN ranks
// below every number, where the reference's order is unspecified). O(n): a threshold from a strided
// sample, one scan that keeps the scores at or above it, and a radix select (11/11/10 bits) among
// those; every score when the guess keeps fewer than k.
void select_top_k(const float* scores, int64_t n, int64_t k, TopKScratch& work, int32_t* out);

// The same selection split over threads. Each thread collects the candidates of its own range
// against a threshold guessed for its share of k (collect_top_k_candidates), then one thread
// merges (select_top_k_of_parts): a radix select of the k-th largest key T over all candidates,
// exact when T >= every part's threshold (no part dropped a score >= T). Otherwise the parts
// whose threshold was above T are collected again at T, which is at most the true k-th largest
// (T is the k-th largest of a subset), and the second select is exact. Requires k < n, and the
// parts to cover [0, n) in order.
void collect_top_k_candidates(const float* scores, int64_t begin, int64_t end, int64_t n, int64_t k,
                              TopKCandidates& part);
void select_top_k_of_parts(const float* scores, int64_t k, TopKCandidates* parts, int n_parts,
                           std::vector<uint32_t>& hist, int32_t* out);

// The plain reference of the same rule: nth_element over (score, position) pairs + one scan.
void select_top_k_reference(const float* scores, int64_t n, int64_t k,
                            std::vector<std::pair<float, int32_t>>& work, int32_t* out);

} // namespace folio
