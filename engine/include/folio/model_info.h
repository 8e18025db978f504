#pragma once
// What a GGUF model file contains, as plain data for the UI and `folio-cli info`: sizes,
// parameter counts (total and, for MoE models, active per token), bytes by tensor type and the
// metadata rendered as short display strings. Opening validates the whole container.

#include "folio/error.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace folio {

struct TensorTypeSummary {
    std::string type_name; // "f32", "q8_0", "mxfp4", ...
    uint64_t tensor_count = 0;
    uint64_t bytes = 0;  // payload bytes (unpadded)
    uint64_t params = 0; // elements
};

struct MetadataEntry {
    std::string key;
    std::string type_name; // "uint32", "string", "array[string]", ...
    std::string display;   // short rendering; long arrays/strings summarized
};

struct TensorSummary {
    std::string name;
    std::string type_name;
    std::array<int64_t, 4> ne{1, 1, 1, 1};
    uint32_t n_dims = 1;
    uint64_t bytes = 0;
    uint64_t offset = 0; // absolute file offset of the payload
};

struct ModelInfo {
    std::string path;
    uint64_t file_size = 0;
    uint32_t gguf_version = 0;
    uint32_t alignment = 32;
    std::string architecture; // general.architecture ("" when absent)
    std::string name;         // general.name, else the file stem
    uint64_t tensor_count = 0;
    uint64_t parameter_count = 0;           // sum of all tensor element counts
    uint64_t active_parameter_count = 0;    // per token; equals parameter_count for dense models
    uint32_t expert_count = 0;              // {arch}.expert_count, 0 when absent
    uint32_t expert_used_count = 0;         // {arch}.expert_used_count, 0 when absent
    uint64_t context_length = 0;            // {arch}.context_length, 0 when absent
    uint64_t vocab_size = 0;                // length of tokenizer.ggml.tokens, 0 when absent
    std::vector<TensorTypeSummary> by_type; // sorted by bytes, largest first
    std::vector<MetadataEntry> metadata;    // in file order
    std::vector<TensorSummary> tensors;     // in file order
};

// Opens and validates `path` (the full GGUF reader checks) and summarizes it.
Expected<ModelInfo> inspect_model(const std::string& path);

// "1.23 GiB", "2.76 MiB", "512 B".
std::string format_bytes(uint64_t bytes);
// "722.3K", "1.03B", "17" (SI suffixes K, M, B, T).
std::string format_count(uint64_t n);

} // namespace folio
