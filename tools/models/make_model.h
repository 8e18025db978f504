#pragma once
// `folio-cli make-model`: random-weight models in exactly llama.cpp's GGUF layout (metadata
// keys, tensor names, ne order, tokenizer keys), for tests, benchmarks and the demo model.
// One file per architecture (deepseek2_model.cpp, ...); this header is the common interface.

#include "folio/error.h"
#include "tensor/dtype.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace folio::tools {

struct MakeModelOptions {
    std::string arch = "deepseek2"; // deepseek2 | deepseek32 | kimi-linear | kimi-hybrid
    std::string preset = "tiny";    // tiny (< 3 MB) | small (~100 MB) | bench (~1 GB, 920M params)
    std::string type = "f32";       // f32 | f16 | q8_0 | q4_k_m | mxfp4-moe
    uint64_t seed = 42;
    // --confident: a random model whose predictions have clear margins (see make_model.cpp,
    // kConfident*), for quantization tests; same tensors, types and metadata as without it.
    bool confident = false;
    uint32_t n_embd_text = 0; // kimivl: the paired text model's hidden size (0: the preset's)
    // The context_length written (0: the preset's), e.g. a tiny model that holds a 32K-token
    // document for benchmarks of long prompts. Decoder architectures only.
    uint32_t context = 0;
    std::string out;
    // Called after each tensor with (tensors done, tensors total); may be empty.
    std::function<void(size_t, size_t)> progress;
};

// A tensor of the model being generated, before its payload is drawn.
struct TensorPlan {
    std::string name;
    std::vector<int64_t> ne; // ggml order
    int64_t layer = -1;      // block index for blk.N.* tensors, else -1
    int64_t n_layer = 0;     // block count of the model
    enum class Init { Normal, Norm, SmallBias, NegativeDecay } init = Init::Normal;
};

// Storage type of one tensor under a --type recipe, following llama.cpp's converter and
// quantizer rules (src/llama-quant.cpp): norms, biases, routers and 1-D tensors stay F32.
DType tensor_type_for(const std::string& recipe, const TensorPlan& tensor);

// Checks the options and writes the model; errors name the bad option.
Status make_model(const MakeModelOptions& options);

} // namespace folio::tools
