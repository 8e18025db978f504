#pragma once
// Binds tensors of a GGUF file by name as views, with their shapes checked against what the
// metadata implies (llama.cpp's GGUF layout). Errors name the file and the tensor. Each bound
// tensor is placed through `device`, the one the device plan gave its layer
// (backend/device_plan.h): the view returned is the one that device computes with.

#include "backend/device.h"
#include "folio/error.h"
#include "gguf/gguf_file.h"
#include "tensor/tensor_view.h"

#include <cstdint>
#include <string>
#include <vector>

namespace folio {

struct WeightBinder {
    const gguf::File& f;
    Device& device;

    // The tensor `name` with exactly the shape `expect` (ggml order; missing dims are 1), of any
    // type the kernels compute with. Optional and missing: a view with data == nullptr.
    Expected<TensorView> get(const std::string& name, std::vector<int64_t> expect,
                             bool optional = false) const;
    // The same for a tensor the kernels read as plain floats (norm weights, biases, KDA's conv
    // taps and decay): it must be f32, as llama-quantize keeps it.
    // Everything llama.cpp runs through a matmul (projections, the router, the indexer's head
    // weights) takes any type the matmul kernels support and is bound with get().
    Expected<TensorView> get_f32(const std::string& name, std::vector<int64_t> expect,
                                 bool optional = false) const;
    bool has(const std::string& name) const { return f.find_tensor(name) != nullptr; }
};

} // namespace folio
