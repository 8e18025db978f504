// Defaults for long documents (folio/context_plan.h): the KV footprint of a model from its
// metadata and the layer kinds' own answers (the same ones a sequence is built from), and the
// context a machine's RAM budget plus disk tier can hold.
#include "folio/context_plan.h"

#include "gguf/gguf_file.h"
#include "model/decoder/layer_needs.h"
#include "model/layer/model_config.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/statvfs.h>

namespace folio {

Expected<KvFootprint> kv_footprint(const std::string& gguf, KvType kv_type, KvType index_type) {
    FOLIO_TRY(file, gguf::File::open(gguf));
    FOLIO_TRY(config, read_model_config(*file));
    const ModelConfig& c = config;
    KvFootprint f;
    for (uint32_t il = 0; il < c.n_layer; ++il) {
        const LayerKvBytes b = layer_kv_bytes(c, il, kv_type, index_type);
        f.bytes_per_token += b.cache_row;
        f.ram_bytes_per_token += b.token_row;
        f.fixed_bytes += b.fixed;
    }
    f.trained_context = c.n_ctx_train;
    std::error_code ec;
    f.weights_bytes = static_cast<int64_t>(std::filesystem::file_size(gguf, ec));
    f.sparse_attention = c.has_indexer();
    return f;
}

KvType recommended_kv_type(bool sparse_attention) {
    return sparse_attention ? KvType::F32 : KvType::F16;
}

MachineMemory machine_memory(const std::string& cache_dir) {
    MachineMemory m;
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line))
        if (line.rfind("MemAvailable:", 0) == 0) {
            std::istringstream in(line.substr(13));
            int64_t kib = 0;
            in >> kib;
            m.available_ram = kib * 1024;
        }
    if (cache_dir.empty())
        return m;
    std::filesystem::path p(cache_dir);
    std::error_code ec;
    while (!p.empty() && !std::filesystem::exists(p, ec) && p != p.parent_path())
        p = p.parent_path();
    struct statvfs vfs {};
    if (!p.empty() && ::statvfs(p.c_str(), &vfs) == 0)
        m.disk_free = static_cast<int64_t>(vfs.f_bavail) * static_cast<int64_t>(vfs.f_frsize);
    return m;
}

ContextPlan plan_context(const KvFootprint& f, KvType kv_type, KvType index_type,
                         const MachineMemory& machine, const std::string& cache_dir) {
    ContextPlan p;
    p.cache.kv_type = kv_type;
    p.cache.index_type = index_type;
    p.bytes_per_token = f.bytes_per_token + f.ram_bytes_per_token;
    const int64_t ram_budget = std::max<int64_t>(0, machine.available_ram / 2 - f.weights_bytes);
    p.cache.ram_budget = ram_budget;
    int64_t disk_budget = 0;
    if (!cache_dir.empty() && machine.disk_free >= 0) {
        disk_budget = machine.disk_free / 2;
        p.cache.offload_dir = cache_dir;
        p.cache.disk_budget = disk_budget;
    }
    // RAM holds the session's fixed state, every token's RAM-only part and the rows that do not
    // go to disk; the disk holds the other rows.
    const int64_t ram_free = std::max<int64_t>(0, ram_budget - f.fixed_bytes);
    int64_t capacity =
        p.bytes_per_token > 0 ? (ram_free + disk_budget) / p.bytes_per_token : f.trained_context;
    if (f.ram_bytes_per_token > 0)
        capacity = std::min(capacity, ram_free / f.ram_bytes_per_token);
    p.capacity_tokens = capacity;
    const int64_t block = p.cache.block_tokens;
    const int64_t floor_tokens = std::min(f.trained_context, kMinContext);
    p.context = f.trained_context;
    if (capacity < f.trained_context) {
        p.limited_by_memory = true;
        p.context = std::max(floor_tokens, capacity / block * block);
    }
    const int64_t rows_in_ram =
        f.bytes_per_token > 0
            ? std::max<int64_t>(0, ram_free - p.context * f.ram_bytes_per_token) / f.bytes_per_token
            : p.context;
    p.ram_tokens = std::min(p.context, rows_in_ram);
    if (!p.cache.offload_dir.empty() && f.bytes_per_token > 0)
        p.disk_tokens = std::min(p.context - p.ram_tokens, disk_budget / f.bytes_per_token);
    return p;
}

Expected<ContextPlan> recommend_context(const std::string& gguf, const std::string& cache_dir) {
    FOLIO_TRY(probe, kv_footprint(gguf, KvType::F32));
    const KvType kv = recommended_kv_type(probe.sparse_attention);
    const KvType index = KvType::F32;
    FOLIO_TRY(footprint, kv_footprint(gguf, kv, index));
    return plan_context(footprint, kv, index, machine_memory(cache_dir), cache_dir);
}

} // namespace folio
