#pragma once
// `folio-cli quantize IN.gguf OUT.gguf --recipe R`: rewrites a model with the storage types a
// recipe chooses (quantize/recipe.h). The metadata is copied (general.file_type set to the
// recipe's llama.cpp file type), tensors keep their order and shapes, so the output loads in
// Folio and in llama.cpp. Streams tensor by tensor through an atomic writer: memory stays
// around the largest tensor's f32 values plus its input and output bytes; rows are converted
// on all threads.

#include "folio/error.h"
#include "quantize/recipe.h"

#include <cstdint>
#include <functional>
#include <string>

namespace folio::tools {

struct QuantizeOptions {
    std::string in, out;
    Recipe recipe;
    int threads = 0; // 0: all cores
    // After each tensor: (done, total, name).
    std::function<void(size_t, size_t, const std::string&)> progress;
};

struct QuantizeReport {
    uint64_t in_bytes = 0, out_bytes = 0;
    size_t tensors = 0, converted = 0;
};

Expected<QuantizeReport> quantize_model(const QuantizeOptions& options);

} // namespace folio::tools
