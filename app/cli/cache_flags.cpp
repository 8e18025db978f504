#include "cli/cache_flags.h"

#include "folio/model_info.h"

namespace folio::cli {

bool take_cache_flags(Args& a, CacheFlags& out, std::string& err) {
    CacheOptions& o = out.options;
    auto kv = a.take_value("--kv-type");
    auto index = a.take_value("--index-type");
    auto budget = a.take_value("--ram-budget");
    const bool strict = a.take_switch("--strict-budget");
    auto shards = a.take_int("--ram-shards");
    auto dir = a.take_value("--offload-dir");
    auto prefix = a.take_value("--prefix-cache");
    auto save = a.take_value("--save-snapshot");
    auto load = a.take_value("--load-snapshot");
    out.any = kv || index || budget || strict || shards || dir || prefix || save || load;
    o.strict_budget = strict;
    if (kv && !parse_kv_type(*kv, o.kv_type)) {
        err = "--kv-type must be f32, f16, bf16 or q8_0";
        return false;
    }
    if (index && (!parse_kv_type(*index, o.index_type) || o.index_type == KvType::BF16)) {
        err = "--index-type must be f32, f16 or q8_0";
        return false;
    }
    if (budget && !parse_byte_size(*budget, o.ram_budget)) {
        err = "--ram-budget expects a byte count such as 512M or 2G";
        return false;
    }
    if (shards) {
        if (*shards < 1 || *shards > 1024) {
            err = "--ram-shards must be between 1 and 1024";
            return false;
        }
        o.ram_shards = static_cast<int>(*shards);
    }
    if (dir)
        o.offload_dir = *dir;
    if (prefix) {
        if (*prefix != "on" && *prefix != "off") {
            err = "--prefix-cache must be on or off";
            return false;
        }
        o.prefix_cache = *prefix == "on";
    }
    if (save)
        out.save_snapshot = *save;
    if (load)
        out.load_snapshot = *load;
    return true;
}

std::string describe_cache_stats(const CacheStats& st) {
    std::string s = "cache:";
    for (const DeviceStats& d : st.devices) {
        s += " " + d.name + " " + format_bytes(static_cast<uint64_t>(d.kv + d.state)) + " (" +
             std::to_string(d.blocks) + " blocks";
        if (d.budget >= 0)
            s += ", budget " + format_bytes(static_cast<uint64_t>(d.budget));
        s += ");";
    }
    s += " moved to disk " + format_bytes(static_cast<uint64_t>(st.bytes_to_disk)) +
         ", read from disk " + format_bytes(static_cast<uint64_t>(st.bytes_from_disk));
    if (st.hits + st.misses > 0)
        s += "; prefix blocks " + std::to_string(st.hits) + " hit / " + std::to_string(st.misses) +
             " missed";
    if (st.over_budget_bytes > 0)
        s += "; over the RAM budget by up to " +
             format_bytes(static_cast<uint64_t>(st.over_budget_bytes)) +
             " (the blocks one step needs)";
    if (!st.warning.empty())
        s += "\nwarning: " + st.warning;
    return s;
}

} // namespace folio::cli
