#pragma once
// The KV-cache flags shared by logits, generate and bench (the cache issue's exact spelling):
// --kv-type f32|f16|bf16|q8_0, --index-type f32|f16|q8_0, --ram-budget BYTES[K|M|G],
// --ram-shards N, --offload-dir DIR, --prefix-cache on|off, --save-snapshot F,
// --load-snapshot F.

#include "cli/args.h"
#include "folio/cache.h"

#include <string>

namespace folio::cli {

struct CacheFlags {
    CacheOptions options;
    std::string save_snapshot, load_snapshot;
    bool any = false; // some cache flag was given (print the cache stats at the end)
};

// Takes the flags out of `a`; false with `err` set on a malformed value.
bool take_cache_flags(Args& a, CacheFlags& out, std::string& err);

// One paragraph for stderr: devices, tiers, bytes moved, over-budget and warnings.
std::string describe_cache_stats(const CacheStats& st);

} // namespace folio::cli
