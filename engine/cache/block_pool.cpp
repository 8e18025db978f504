#include "cache/block_pool.h"

#include "cache/kv_codec.h"

#include <algorithm>
#include <cstring>

namespace folio {

namespace {

PoolConfig normalized(PoolConfig c) {
    c.ram_shards = std::max(1, c.ram_shards);
    c.block_tokens = std::max(1, c.block_tokens);
    return c;
}

} // namespace

BlockPool::BlockPool(const PoolConfig& config)
    : cfg_(normalized(config)), row_bytes_(kv_row_bytes(cfg_.type, cfg_.row_floats)),
      block_bytes_(row_bytes_ * static_cast<size_t>(cfg_.block_tokens)), ram_(block_bytes_) {
    shard_ram_.assign(static_cast<size_t>(cfg_.ram_shards), 0);
    if (!cfg_.offload_dir.empty()) {
        auto d = DiskTier::open(cfg_.offload_dir, block_bytes_, cfg_.disk_budget);
        if (d)
            disk_ = std::move(*d);
        else
            set_warning(d.error().message + "; the cache stays in RAM");
    }
}

BlockPool::~BlockPool() = default; // ram_ frees every block

void BlockPool::set_warning(const std::string& w) {
    if (warning_.empty())
        warning_ = w;
}

Expected<BlockId> BlockPool::allocate(int64_t index) {
    if (cfg_.strict_budget && cfg_.ram_budget >= 0 && !disk_) {
        if (ram_bytes() + fixed_ram() + static_cast<int64_t>(block_bytes_) > cfg_.ram_budget)
            return make_error(ErrorCode::OutOfMemory,
                              "the KV cache's RAM budget of " +
                                  std::to_string(cfg_.ram_budget >> 20) +
                                  " MiB is full and there is no offload folder; raise the budget, "
                                  "set an offload folder, shorten the documents or close chats");
    }
    uint8_t* ram = ram_.allocate();
    if (!ram)
        return make_error(ErrorCode::OutOfMemory, "out of memory for a KV block");
    BlockId id;
    if (!free_ids_.empty()) {
        id = free_ids_.back();
        free_ids_.pop_back();
    } else {
        id = static_cast<BlockId>(blocks_.size());
        blocks_.emplace_back();
    }
    Block& b = blocks_[id];
    b = Block{};
    b.ram = ram;
    b.shard = static_cast<int>(index % cfg_.ram_shards);
    b.refs = 1;
    b.last_use = step_;
    shard_ram_[b.shard] += static_cast<int64_t>(block_bytes_);
    return id;
}

Expected<BlockId> BlockPool::copy(BlockId src) {
    const int shard = blocks_[src].shard;
    FOLIO_TRY(id, allocate(shard));
    // allocate() may have grown blocks_: index again.
    std::memcpy(blocks_[id].ram, data(src), block_bytes_);
    if (on_disk(src))
        bytes_from_disk_ += static_cast<int64_t>(block_bytes_);
    return id;
}

void BlockPool::retain(BlockId id) {
    ++blocks_[id].refs;
}

void BlockPool::release(BlockId id) {
    Block& b = blocks_[id];
    if (--b.refs > 0)
        return;
    if (b.ram) {
        ram_.free(b.ram);
        shard_ram_[b.shard] -= static_cast<int64_t>(block_bytes_);
    }
    if (b.disk_slot >= 0)
        disk_->release(b.disk_slot);
    b = Block{};
    free_ids_.push_back(id);
}

uint8_t* BlockPool::data(BlockId id) const {
    const Block& b = blocks_[id];
    return b.ram ? b.ram : disk_->data(b.disk_slot);
}

void BlockPool::prefetch(BlockId id) {
    Block& b = blocks_[id];
    if (b.disk_slot < 0)
        return;
    if (!b.fetched)
        disk_->prefetch(b.disk_slot);
    b.fetched = true;
    bytes_from_disk_ += static_cast<int64_t>(block_bytes_);
}

Status BlockPool::move_to_disk(BlockId id) {
    Block& b = blocks_[id];
    FOLIO_TRY(slot, disk_->acquire());
    std::memcpy(disk_->data(slot), b.ram, block_bytes_);
    disk_->drop_resident(slot);
    ram_.free(b.ram);
    b.ram = nullptr;
    b.disk_slot = slot;
    shard_ram_[b.shard] -= static_cast<int64_t>(block_bytes_);
    bytes_to_disk_ += static_cast<int64_t>(block_bytes_);
    return {};
}

int BlockPool::open_account() {
    for (size_t i = 0; i < accounts_.size(); ++i)
        if (!accounts_[i].open) {
            accounts_[i] = Account{true, 0, 0};
            return static_cast<int>(i);
        }
    accounts_.push_back(Account{true, 0, 0});
    return static_cast<int>(accounts_.size() - 1);
}

void BlockPool::close_account(int account) {
    accounts_[account] = Account{};
}

void BlockPool::set_fixed(int account, int64_t kv_bytes, int64_t state_bytes) {
    accounts_[account].kv = kv_bytes;
    accounts_[account].state = state_bytes;
}

// After read faults on the tier's file (core/fault_guard.h) the engine drops every sequence
// that used it; once its last slot is free, the damaged file is replaced by a fresh one, and
// after repeated faults the tier is switched off (a failing disk).
void BlockPool::recover_disk_tier() {
    if (!disk_ || disk_->read_faults() == 0 || disk_->used_slots() > 0)
        return;
    lost_disk_faults_ += disk_->read_faults();
    const std::string where = disk_->path();
    disk_.reset();
    if (++disk_replacements_ >= 3) {
        warning_ = "offload switched off after repeated I/O errors in " + where +
                   "; the cache stays in RAM";
        return;
    }
    auto d = DiskTier::open(cfg_.offload_dir, block_bytes_, cfg_.disk_budget);
    if (d)
        disk_ = std::move(*d);
    else
        set_warning(d.error().message + "; the cache stays in RAM");
}

void BlockPool::enforce_budget() {
    recover_disk_tier();
    if (cfg_.ram_budget < 0)
        return;
    const int64_t fixed = fixed_ram();
    const int64_t shards = cfg_.ram_shards;
    const int64_t share = std::max<int64_t>(0, cfg_.ram_budget - fixed) / shards;
    bool over = false;
    int64_t excess = 0; // what the step just finished needed beyond the budget
    for (int64_t v : shard_ram_) {
        over = over || v > share;
        excess += std::max<int64_t>(0, v - share);
    }
    over_budget_peak_ = std::max(over_budget_peak_, excess);
    if (over && disk_) {
        // Called between steps, when no evaluation holds block pointers: every RAM block may
        // move, oldest use first; among equals the lower block id (usually the earlier
        // position; the tail blocks a sequence writes next come last).
        std::vector<BlockId> cand;
        for (BlockId id = 0; id < static_cast<BlockId>(blocks_.size()); ++id) {
            const Block& b = blocks_[id];
            if (b.refs > 0 && b.ram && shard_ram_[b.shard] > share)
                cand.push_back(id);
        }
        std::sort(cand.begin(), cand.end(), [&](BlockId a, BlockId b) {
            return blocks_[a].last_use != blocks_[b].last_use
                       ? blocks_[a].last_use < blocks_[b].last_use
                       : a < b;
        });
        for (BlockId id : cand) {
            if (shard_ram_[blocks_[id].shard] <= share)
                continue;
            if (Status s = move_to_disk(id); !s) {
                set_warning(s.error().message + "; blocks over the RAM budget stay in RAM");
                break;
            }
        }
    } else if (over && warning_.empty()) {
        set_warning("no disk tier: the cache exceeds its RAM budget");
    }
}

int64_t BlockPool::fixed_ram() const {
    int64_t total = 0;
    for (const Account& a : accounts_)
        total += a.kv + a.state;
    return total;
}

int64_t BlockPool::ram_bytes() const {
    int64_t total = 0;
    for (int64_t v : shard_ram_)
        total += v;
    return total;
}

void BlockPool::fill_stats(CacheStats& out) const {
    out.block_tokens = cfg_.block_tokens;
    out.devices.clear();
    std::vector<int64_t> blocks_per_shard(shard_ram_.size(), 0);
    int64_t on_disk = 0;
    for (const Block& b : blocks_) {
        if (b.refs <= 0)
            continue;
        if (b.ram)
            ++blocks_per_shard[b.shard];
        else
            ++on_disk;
    }
    out.blocks_ram = 0;
    for (size_t i = 0; i < shard_ram_.size(); ++i) {
        DeviceStats d;
        d.name = "ram" + std::to_string(i);
        d.kind = DeviceKind::Ram;
        d.budget = cfg_.ram_budget < 0 ? -1 : cfg_.ram_budget / cfg_.ram_shards;
        d.kv = shard_ram_[i];
        if (i == 0)
            for (const Account& a : accounts_) {
                d.kv += a.kv;
                d.state += a.state;
            }
        d.blocks = blocks_per_shard[i];
        out.blocks_ram += d.blocks;
        out.devices.push_back(d);
    }
    if (disk_) {
        DeviceStats d;
        d.name = "disk";
        d.kind = DeviceKind::Disk;
        d.budget = cfg_.disk_budget;
        d.kv = disk_->used_slots() * static_cast<int64_t>(block_bytes_);
        d.blocks = on_disk;
        out.devices.push_back(d);
    }
    out.blocks_disk = on_disk;
    out.bytes_to_disk = bytes_to_disk_;
    out.bytes_from_disk = bytes_from_disk_;
    out.over_budget_bytes = over_budget_peak_;
    out.step = step_;
    if (out.warning.empty())
        out.warning = warning_;
}

} // namespace folio
