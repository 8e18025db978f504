// folio-cli info FILE.gguf: what a GGUF model file holds (sizes, parameters, tensor types,
// metadata). --tensors also lists every tensor.
#include "cli/args.h"
#include "cli/commands.h"

#include "folio/model_info.h"

#include <cstdio>

namespace folio::cli {

namespace {

std::string shape(const TensorSummary& t) {
    std::string s = "[";
    for (uint32_t d = 0; d < t.n_dims; ++d) {
        if (d > 0)
            s += ", ";
        s += std::to_string(t.ne[d]);
    }
    s += ']';
    return s;
}

void print_info(const ModelInfo& m, bool list_tensors) {
    std::printf("file: %s\n", m.path.c_str());
    std::printf("size: %s (%llu bytes)\n", format_bytes(m.file_size).c_str(),
                static_cast<unsigned long long>(m.file_size));
    std::printf("gguf version: %u, alignment %u\n", m.gguf_version, m.alignment);
    std::printf("architecture: %s\n", m.architecture.empty() ? "(none)" : m.architecture.c_str());
    std::printf("name: %s\n", m.name.c_str());
    std::printf("tensors: %llu\n", static_cast<unsigned long long>(m.tensor_count));
    std::printf("parameters: %s (%llu)\n", format_count(m.parameter_count).c_str(),
                static_cast<unsigned long long>(m.parameter_count));
    if (m.expert_count > 0)
        std::printf("active parameters per token: %s (%llu; %u of %u experts)\n",
                    format_count(m.active_parameter_count).c_str(),
                    static_cast<unsigned long long>(m.active_parameter_count), m.expert_used_count,
                    m.expert_count);
    if (m.context_length > 0)
        std::printf("context length: %llu\n", static_cast<unsigned long long>(m.context_length));
    if (m.vocab_size > 0)
        std::printf("vocab size: %llu\n", static_cast<unsigned long long>(m.vocab_size));

    // The type mix, largest first (a llama-quantize Q4_K_M file is mostly q4_K with q6_K, q5_0,
    // q8_0 ... where its rules or row lengths say so); share = of all tensor bytes.
    uint64_t all_bytes = 0;
    for (const TensorTypeSummary& t : m.by_type)
        all_bytes += t.bytes;
    std::printf("\ntensor types:%s\n", m.by_type.empty() ? " (none)" : "");
    for (const TensorTypeSummary& t : m.by_type)
        std::printf("  %-7s %6llu tensors %12s %5.1f %% %14llu params\n", t.type_name.c_str(),
                    static_cast<unsigned long long>(t.tensor_count), format_bytes(t.bytes).c_str(),
                    all_bytes ? 100.0 * static_cast<double>(t.bytes) / all_bytes : 0.0,
                    static_cast<unsigned long long>(t.params));

    size_t key_width = 0;
    for (const MetadataEntry& e : m.metadata)
        key_width = std::max(key_width, e.key.size());
    std::printf("\nmetadata (%zu keys):\n", m.metadata.size());
    for (const MetadataEntry& e : m.metadata)
        std::printf("  %-*s  %-14s %s\n", static_cast<int>(key_width), e.key.c_str(),
                    e.type_name.c_str(), e.display.c_str());

    if (list_tensors) {
        std::printf("\ntensors:\n");
        for (const TensorSummary& t : m.tensors)
            std::printf("  %-40s %-7s %-22s %10llu bytes at %llu\n", t.name.c_str(),
                        t.type_name.c_str(), shape(t).c_str(),
                        static_cast<unsigned long long>(t.bytes),
                        static_cast<unsigned long long>(t.offset));
    }
}

} // namespace

int cmd_info(std::vector<std::string> args) {
    Args a(std::move(args));
    const bool list_tensors = a.take_switch("--tensors");
    auto rest = a.positionals();
    const Command& self = *find_command("info");
    if (!a.ok())
        return usage_error(self, a.error());
    if (rest.size() != 1)
        return usage_error(self,
                           rest.empty() ? "missing FILE.gguf" : "unexpected argument " + rest[1]);
    auto info = inspect_model(rest[0]);
    if (!info)
        return fail(info.error().to_string());
    print_info(*info, list_tensors);
    return 0;
}

} // namespace folio::cli
