#pragma once
// Quantization recipes: which storage type each tensor of a model gets (`folio-cli quantize
// --recipe R`). Built in:
//   q8_0       every weight matrix Q8_0; norms, router, 1-D tensors and embeddings kept
//   q4_k       weight matrices Q4_K (Q8_0 where rows are not multiples of 256)
//   mxfp4-moe  routed experts MXFP4; shared experts, attention and the output Q8_0; router,
//              norms and embeddings kept (the seed model's per-module mixture)
//   mxfp4-moe-llama  llama.cpp's MXFP4_MOE: also attn_k_b / attn_v_b MXFP4, embeddings Q8_0
// or a recipe file: one `pattern = type` per line (# comments), first match wins; a pattern is a
// glob over the tensor name (`*` any run of characters, `?` one character); type is f32, f16,
// bf16, q8_0, q4_0, q4_k, q6_k, mxfp4 or keep. Tensors no line matches are kept.
// A chosen type whose block does not divide the row falls back to Q8_0, then to the source type.

#include "folio/error.h"
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
};

// A built-in recipe by name, or the recipe file at that path.
Expected<Recipe> load_recipe(const std::string& name_or_path);
Expected<Recipe> parse_recipe(const std::string& text, const std::string& name);

bool glob_match(const std::string& pattern, const std::string& text);

// The storage type for tensor `name` with row length ne0 stored as `source`.
DType recipe_type(const Recipe& r, const std::string& name, int64_t ne0, int n_dims, DType source);

} // namespace folio::tools
