#pragma once
// Token sampling: greedy, temperature, top-k, top-p, min-p, repetition and presence penalties,
// with a seeded generator so a fixed seed gives the same tokens every time. Plain data in,
// token out; no global state.

#include "runtime/candidate_order.h"

#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace folio {

struct SamplingParams {
    float temperature = 0.0f;        // <= 0: greedy (argmax, lowest id on ties)
    int top_k = 0;                   // 0: off
    float top_p = 1.0f;              // 1: off
    float min_p = 0.0f;              // 0: off; keeps tokens with p >= min_p · p_max
    float repetition_penalty = 1.0f; // 1: off; divides positive / multiplies negative logits
    float presence_penalty = 0.0f;   // subtracted once from every token already seen
    int penalty_last_n = 64;         // window of recent tokens the penalties look at
    uint64_t seed = 0;
};

class Sampler {
public:
    explicit Sampler(SamplingParams params);

    // Picks the next token from logits (n_vocab values) given the tokens so far (for the
    // penalties). Does not modify the caller's logits.
    int32_t sample(std::span<const float> logits, std::span<const int32_t> history);

    const SamplingParams& params() const { return params_; }

private:
    SamplingParams params_;
    std::mt19937_64 rng_;
    std::vector<float> work_;
    std::vector<int32_t> ids_;
    std::vector<double> probs_;
    CandidateScratch order_scratch_;
};

// Index of the largest value, lowest index on ties.
int32_t argmax(std::span<const float> logits);

} // namespace folio
