#pragma once
// Quantization recipes: which storage type each tensor of a model gets (`folio-cli quantize
// --recipe R`). Built in:
//   q8_0       every weight matrix Q8_0; norms, router, 1-D tensors and embeddings kept
//   q4_k       weight matrices Q4_K (Q8_0 where rows are not multiples of 256)
//   mxfp4-moe  routed experts MXFP4; shared experts, attention and the output Q8_0; router,
//              norms and embeddings kept (the seed model's per-module mixture)
//   mxfp4-moe-llama  llama.cpp's MXFP4_MOE: also attn_k_b / attn_v_b MXFP4, embeddings Q8_0
//   q3_k_m q4_k_m q5_k_m q6_k iq4_xs  llama-quantize's file types of those names, tensor for
//              tensor (quantize/llama_mix.h; norms, router, conv and indexer.proj kept f32)
// or a recipe file: one `pattern = type` per line (# comments), first match wins; a pattern is a
// glob over the tensor name (`*` any run of characters, `?` one character); type is f32, f16,
// bf16, q8_0, q4_0, q4_1, q5_0, q5_1, q2_k, q3_k, q4_k, q5_k, q6_k, iq4_nl, iq4_xs, mxfp4, q1_0,
// q2_0 or keep.
// Tensors no line matches are kept. A chosen type whose block does not divide the row falls back to
// Q8_0, then to the source type.

#include "folio/error.h"
#include "quantize/llama_mix.h"
#include "tensor/dtype.h"

#include <optional>
#include <string>
#include <vector>

namespace folio::tools {

struct RecipeRule {
    std::string pattern;
    std::optional<DType> type; // nullopt: keep the source type
};

struct Recipe {
    std::string name;
    std::vector<RecipeRule> rules;
    uint32_t file_type = 0; // general.file_type (llama.cpp's LLAMA_FTYPE)
    // Set for llama-quantize's mixtures: tensors no rule keeps get LlamaMix's choice.
    std::optional<LlamaFtype> llama_mix;
};

// A built-in recipe by name, or the recipe file at that path.
Expected<Recipe> load_recipe(const std::string& name_or_path);
Expected<Recipe> parse_recipe(const std::string& text, const std::string& name);

// True when a rule matches `name` (the first matching rule decides whether it keeps).
bool recipe_matches(const Recipe& r, const std::string& name);

bool glob_match(const std::string& pattern, const std::string& text);

// The storage type for tensor `name` with row length ne0 stored as `source`.
DType recipe_type(const Recipe& r, const std::string& name, int64_t ne0, int n_dims, DType source);

} // namespace folio::tools
