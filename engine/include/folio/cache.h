#pragma once
// The KV cache as the rest of the program sees it (docs/KV_CACHE.md): what the user
// chooses (storage types, RAM budget, shards, the disk tier's folder, prefix sharing) and what the
// engine reports (bytes per device and category, blocks per tier, hits and misses, bytes moved,
// and a compact block map per session for the cache view). std only.

#include <cstdint>
#include <string>
#include <vector>

namespace folio {

// Storage type of cached rows. Index keys (DSA) take F32, F16 or Q8_0.
enum class KvType { F32, F16, BF16, Q8_0 };

const char* kv_type_name(KvType t); // "f32", "f16", "bf16", "q8_0"
bool parse_kv_type(const std::string& s, KvType& out);
// Parses a byte count with an optional K/M/G/T suffix (powers of 1024), e.g. "512M".
bool parse_byte_size(const std::string& s, int64_t& out);

struct CacheOptions {
    KvType kv_type = KvType::F32;    // MLA latents [c | k_pe]
    KvType index_type = KvType::F32; // DSA index keys (always kept in RAM)
    // KV/state bytes allowed in RAM over all shards; < 0: unlimited. Over the budget the
    // least-recently-used blocks move to the disk tier.
    int64_t ram_budget = -1;
    // Without a (working) disk tier the budget is a warning by default: the cache grows past it.
    // Strict: a request that would grow the cache past it fails with an out-of-memory error
    // instead (the machine never swaps for the cache).
    bool strict_budget = false;
    int ram_shards = 0;       // 0: one per CPU memory node
    std::string offload_dir;  // the disk tier's folder; "" : no disk tier
    int64_t disk_budget = -1; // bytes the disk tier may use; < 0: until the disk is full
    bool prefix_cache = true; // share leading blocks between sessions by content hash
    int block_tokens = 64;    // tokens per block
};

enum class DeviceKind { Ram, Disk };

struct DeviceStats {
    std::string name; // "ram0", "ram1", ..., "disk"
    DeviceKind kind = DeviceKind::Ram;
    int64_t budget = -1; // bytes; < 0: unlimited
    // Live bytes by category.
    int64_t weights = 0; // mapped model files (ram0 only)
    int64_t kv = 0;      // attention blocks (latents, index keys)
    int64_t state = 0;   // recurrent (KDA) states and their checkpoints
    int64_t scratch = 0; // evaluation buffers
    int64_t blocks = 0;  // KV blocks held here
};

// One cell of the cache view: a block of block_tokens tokens of one session.
enum class BlockTier : uint8_t { Ram, Disk, Mixed };
struct BlockCell {
    BlockTier tier = BlockTier::Ram;
    bool shared = false;   // also used by another session or the prefix cache
    uint64_t last_use = 0; // the cache's step counter at the last read or write
};
struct SessionBlockMap {
    int64_t session = 0;
    int64_t tokens = 0;
    std::vector<BlockCell> blocks;
};

struct CacheStats {
    std::vector<DeviceStats> devices;
    int block_tokens = 64;
    int64_t blocks_ram = 0, blocks_disk = 0;
    int64_t hits = 0, misses = 0; // prefix blocks found / not found at request start
    int64_t bytes_to_disk = 0;    // totals since load
    int64_t bytes_from_disk = 0;
    double to_disk_rate = 0, from_disk_rate = 0; // bytes per second, recent window
    int64_t last_prefix_hit_tokens = 0;          // the latest request's reused tokens
    int64_t over_budget_bytes = 0; // peak RAM bytes above the budget (blocks of one step)
    uint64_t step = 0;             // the counter BlockCell::last_use refers to
    std::string warning;           // e.g. "offload folder not writable: ..., keeping all in RAM"
};

} // namespace folio
