#pragma once
// Binds tensors of a GGUF file by name as views, with their shapes checked against what the
// metadata implies (GGUF_LAYOUT.md §2). Errors name the file and the tensor.

#include "folio/error.h"
#include "gguf/gguf_file.h"
#include "tensor/tensor_view.h"

#include <cstdint>
#include <string>
#include <vector>

namespace folio {

struct WeightBinder {
    const gguf::File& f;

    // The tensor `name` with exactly the shape `expect` (ggml order; missing dims are 1), of any
    // type the kernels compute with. Optional and missing: a view with data == nullptr.
    Expected<TensorView> get(const std::string& name, std::vector<int64_t> expect,
                             bool optional = false) const;
    // The same for a tensor the kernels read as plain floats (norm weights, biases, KDA's conv
    // taps and decay; GGUF_LAYOUT.md §2.9): it must be f32, as llama-quantize keeps it.
    // Everything llama.cpp runs through a matmul (projections, the router, the indexer's head
    // weights) takes any type the matmul kernels support and is bound with get().
    Expected<TensorView> get_f32(const std::string& name, std::vector<int64_t> expect,
                                 bool optional = false) const;
    bool has(const std::string& name) const { return f.find_tensor(name) != nullptr; }
};

} // namespace folio
