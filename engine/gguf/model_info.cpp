// folio::inspect_model: a validated GGUF file summarized as plain data (folio/model_info.h).
#include "folio/model_info.h"

#include "gguf/gguf_file.h"
#include "gguf/value_format.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace folio {

namespace {

// Integer scalar of any integer type (display only: the model loader is strict).
uint64_t int_key(const gguf::File& f, const std::string& key) {
    const gguf::KeyValue* kv = f.find_key(key);
    if (kv == nullptr)
        return 0;
    switch (kv->value.type) {
    case gguf::ValueType::U8:
    case gguf::ValueType::U16:
    case gguf::ValueType::U32:
    case gguf::ValueType::U64:
        return static_cast<uint64_t>(kv->value.i);
    case gguf::ValueType::I8:
    case gguf::ValueType::I16:
    case gguf::ValueType::I32:
    case gguf::ValueType::I64:
        return kv->value.i > 0 ? static_cast<uint64_t>(kv->value.i) : 0;
    default:
        return 0;
    }
}

std::string string_key(const gguf::File& f, const std::string& key) {
    const gguf::KeyValue* kv = f.find_key(key);
    return kv != nullptr && kv->value.type == gguf::ValueType::String ? kv->value.s : "";
}

std::string file_stem(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    const size_t dot = base.rfind('.');
    return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}

// Routed-expert tensors (ffn_{gate,up,down}_exps.*): only expert_used_count of expert_count
// experts run per token.
bool is_routed_expert(const std::string& name) {
    return name.find("_exps") != std::string::npos;
}

} // namespace

Expected<ModelInfo> inspect_model(const std::string& path) {
    FOLIO_TRY(file, gguf::File::open(path));
    const gguf::File& f = *file;
    ModelInfo info;
    info.path = path;
    info.file_size = f.file_size();
    info.gguf_version = f.version();
    info.alignment = f.alignment();
    info.architecture = string_key(f, "general.architecture");
    info.name = string_key(f, "general.name");
    if (info.name.empty())
        info.name = file_stem(path);
    info.tensor_count = f.tensors().size();
    if (!info.architecture.empty()) {
        const std::string& a = info.architecture;
        info.expert_count = static_cast<uint32_t>(int_key(f, a + ".expert_count"));
        info.expert_used_count = static_cast<uint32_t>(int_key(f, a + ".expert_used_count"));
        info.context_length = int_key(f, a + ".context_length");
    }
    if (const gguf::KeyValue* kv = f.find_key("tokenizer.ggml.tokens");
        kv != nullptr && kv->value.type == gguf::ValueType::Array && kv->value.array)
        info.vocab_size = kv->value.array->size();

    std::map<DType, TensorTypeSummary> by_type;
    uint64_t expert_params = 0;
    for (const gguf::TensorInfo& t : f.tensors()) {
        const auto n = static_cast<uint64_t>(t.n_elements());
        info.parameter_count += n;
        if (is_routed_expert(t.name))
            expert_params += n;
        TensorTypeSummary& s = by_type[t.type];
        s.type_name = std::string(dtype_name(t.type));
        ++s.tensor_count;
        s.bytes += t.size_bytes;
        s.params += n;
        TensorSummary ts;
        ts.name = t.name;
        ts.type_name = s.type_name;
        ts.ne = t.ne;
        ts.n_dims = t.n_dims;
        ts.bytes = t.size_bytes;
        ts.offset = f.data_offset() + t.offset;
        info.tensors.push_back(std::move(ts));
    }
    info.active_parameter_count = info.parameter_count;
    if (info.expert_count > 0 && info.expert_used_count > 0 &&
        info.expert_used_count <= info.expert_count) {
        const auto active_experts =
            static_cast<uint64_t>(static_cast<unsigned __int128>(expert_params) *
                                  info.expert_used_count / info.expert_count);
        info.active_parameter_count = info.parameter_count - expert_params + active_experts;
    }
    for (auto& [type, s] : by_type)
        info.by_type.push_back(std::move(s));
    std::stable_sort(info.by_type.begin(), info.by_type.end(),
                     [](const auto& a, const auto& b) { return a.bytes > b.bytes; });

    for (const gguf::KeyValue& kv : f.metadata())
        info.metadata.push_back(
            {kv.key, gguf::value_type_label(kv.value), gguf::format_value(kv.value)});
    return info;
}

std::string format_bytes(uint64_t bytes) {
    static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    if (bytes < 1024)
        return std::to_string(bytes) + " B";
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f %s", v, units[u]);
    return buf;
}

std::string format_count(uint64_t n) {
    static const char* suffix[] = {"", "K", "M", "B", "T"};
    if (n < 1000)
        return std::to_string(n);
    double v = static_cast<double>(n);
    int s = 0;
    while (v >= 1000 && s < 4) {
        v /= 1000;
        ++s;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, v < 10 ? "%.2f%s" : "%.1f%s", v, suffix[s]);
    return buf;
}

} // namespace folio
