#pragma once
// The block pool behind every sequence's KV cache (docs/KV_CACHE.md). A block holds
// block_tokens cached rows of one layer in the storage type. Blocks live in RAM, spread over
// N logical RAM shards by their position in the sequence (logical block index mod N), each shard
// with its share of the RAM budget; over budget, the least-recently-used blocks move to the disk
// tier. Blocks are reference counted: sequences that share a prefix share its blocks, and the
// prefix index (prefix_index.h) keeps finished ones for later requests.
//
// Single-threaded by design: the engine's worker owns the pool; evaluation threads only read
// block data through pointers obtained before a parallel region.

#include "cache/disk_tier.h"
#include "cache/ram_slabs.h"
#include "folio/cache.h"
#include "folio/error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace folio {

using BlockId = int32_t;

struct PoolConfig {
    int block_tokens = 64;
    int64_t row_floats = 0; // floats per cached row
    KvType type = KvType::F32;
    int64_t ram_budget = -1;    // bytes for blocks + fixed state over all shards; < 0 unlimited
    bool strict_budget = false; // no disk tier: allocate() fails past ram_budget
    int ram_shards = 1;
    std::string offload_dir; // "" : no disk tier
    int64_t disk_budget = -1;
};

class BlockPool {
public:
    explicit BlockPool(const PoolConfig& config);
    ~BlockPool();
    BlockPool(const BlockPool&) = delete;
    BlockPool& operator=(const BlockPool&) = delete;

    const PoolConfig& config() const { return cfg_; }
    size_t row_bytes() const { return row_bytes_; }
    size_t block_bytes() const { return block_bytes_; }

    // A new RAM block (reference count 1) for logical block `index` of a sequence.
    Expected<BlockId> allocate(int64_t index);
    // A private RAM copy of `src` (copy-on-write), reference count 1.
    Expected<BlockId> copy(BlockId src);
    void retain(BlockId id);
    void release(BlockId id);
    int refs(BlockId id) const { return blocks_[id].refs; }
    bool on_disk(BlockId id) const { return blocks_[id].disk_slot >= 0; }
    uint8_t* data(BlockId id) const;
    void touch(BlockId id) { blocks_[id].last_use = step_; }
    uint64_t last_use(BlockId id) const { return blocks_[id].last_use; }
    // Reads a disk block in ahead of use (counted as bytes moved from disk).
    void prefetch(BlockId id);

    // The clock of last_use: one tick per evaluation step.
    uint64_t step() const { return step_; }
    void next_step() { ++step_; }
    // Between steps: moves least-recently-used RAM blocks to disk while a shard holds more than
    // its share of the budget, counting the RAM that cannot move (recurrent states, index keys:
    // see set_fixed) against it. Without a (working) disk tier the excess stays and is reported.
    void enforce_budget();

    // Per sequence: bytes in RAM outside the blocks (index keys: kv; KDA states: state).
    int open_account();
    void close_account(int account);
    void set_fixed(int account, int64_t kv_bytes, int64_t state_bytes);

    // Changes the RAM budget (e.g. from the settings); applies at the next enforce_budget().
    void set_ram_budget(int64_t bytes) { cfg_.ram_budget = bytes; }
    bool has_disk() const { return disk_ != nullptr; }
    // Disk-tier pages lost to I/O errors or truncation since the pool was made (DiskTier).
    uint64_t disk_faults() const { return lost_disk_faults_ + (disk_ ? disk_->read_faults() : 0); }
    const std::string& warning() const { return warning_; }
    // Fills the pool's part of `out`: devices (kv bytes, blocks), tiers, bytes moved, warning.
    void fill_stats(CacheStats& out) const;
    int64_t ram_bytes() const;

private:
    struct Block {
        uint8_t* ram = nullptr;
        int64_t disk_slot = -1;
        int shard = 0;
        int refs = 0;
        uint64_t last_use = 0;
        bool fetched = false; // readahead requested since it moved to disk
    };
    Status move_to_disk(BlockId id);
    void recover_disk_tier();
    int64_t fixed_ram() const; // the accounts' kv + state bytes
    void set_warning(const std::string& w);

    PoolConfig cfg_;
    size_t row_bytes_ = 0, block_bytes_ = 0;
    RamSlabs ram_; // the RAM of the blocks
    std::vector<Block> blocks_;
    std::vector<BlockId> free_ids_;
    std::vector<int64_t> shard_ram_; // bytes of live RAM blocks per shard
    struct Account {
        bool open = false;
        int64_t kv = 0, state = 0;
    };
    std::vector<Account> accounts_;
    std::unique_ptr<DiskTier> disk_;
    uint64_t step_ = 1;
    int64_t bytes_to_disk_ = 0, bytes_from_disk_ = 0;
    int64_t over_budget_peak_ = 0;
    uint64_t lost_disk_faults_ = 0; // faults of disk tiers replaced since
    int disk_replacements_ = 0;
    std::string warning_;
};

} // namespace folio
