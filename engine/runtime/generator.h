#pragma once
// Text generation over any decoder: prefill the prompt, then sample token by token, streaming
// complete UTF-8 text, stopping on end-of-generation tokens, stop strings, the token limit or
// the caller's request. The decoder is passed as a function so this loop serves every model.

#include "folio/error.h"
#include "runtime/sampler.h"
#include "tokenizer/stream_decoder.h"
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace folio {

// Evaluates n tokens appended to the sequence and fills the logits of the last one.
using EvalFn = std::function<Status(const int32_t* tokens, int64_t n, std::vector<float>& logits)>;

struct GenerateOptions {
    int max_tokens = 128;
    SamplingParams sampling;
    std::vector<std::string> stop; // stop strings (not included in the output)
    bool ignore_eos = false;       // keep going through end-of-generation tokens
};

enum class StopReason { EndOfGeneration, StopString, MaxTokens, Cancelled };

struct GenerateResult {
    std::vector<int32_t> tokens; // generated ids (the stop token is included, the rest is not)
    std::string text;            // generated text, without a matched stop string
    StopReason reason = StopReason::MaxTokens;
    int64_t n_prompt = 0;
    double prefill_seconds = 0;
    double decode_seconds = 0;
};

// Streaming sink: receives text as it becomes final (never part of a possible stop string)
// and each token id. Returning false stops the generation (Cancelled).
using TokenSink = std::function<bool(std::string_view text, int32_t id)>;

Expected<GenerateResult> generate(const EvalFn& eval, const tokenizer::Tokenizer& tok,
                                  const std::vector<int32_t>& prompt,
                                  const GenerateOptions& options, const TokenSink& sink);

} // namespace folio
