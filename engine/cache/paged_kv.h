#pragma once
// One sequence's cached attention rows: per layer that caches rows (MLA layers), a table of
// blocks from the shared BlockPool. The model writes the rows of new tokens with store() and
// reads them block by block through view(). Full blocks may be shared with other sequences
// (prefix cache); a shared or disk-resident block is copied before it is written
// (copy-on-write), so a sequence never changes rows another one reads.

#include "cache/block_pool.h"
#include "cache/kv_view.h"
#include "folio/error.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace folio {

class PagedKv {
public:
    PagedKv() = default;
    // layer_rows[il]: whether layer il caches rows (row size: the pool's row_floats).
    PagedKv(std::shared_ptr<BlockPool> pool, const std::vector<bool>& layer_rows,
            int64_t max_tokens);
    ~PagedKv();
    PagedKv(PagedKv&& o) noexcept;
    PagedKv& operator=(PagedKv&& o) noexcept;
    PagedKv(const PagedKv&) = delete;
    PagedKv& operator=(const PagedKv&) = delete;

    int64_t row_size() const { return pool_ ? pool_->config().row_floats : 0; }
    int64_t size() const { return n_tokens_; }
    int64_t max_tokens() const { return max_tokens_; }
    int block_tokens() const { return pool_ ? pool_->config().block_tokens : 64; }

    // Writes the rows of positions [size(), size() + n) of `layer` (n rows of row_size()
    // floats). Error when the context limit would be exceeded or memory runs out.
    Status store(uint32_t layer, const float* rows, int64_t n);
    // After every layer stored its n rows: the tokens become part of the sequence.
    void commit(int64_t n) { n_tokens_ += n; }
    // Rows [0, n_rows) of `layer` (may include rows stored but not yet committed). Marks the
    // blocks used in this step (mark_all = false: the caller marks the blocks it reads).
    KvView view(uint32_t layer, int64_t n_rows, bool mark_all = true);
    // Marks the blocks holding `positions` of `layer` as used (sparse reads).
    void mark_rows(uint32_t layer, const int32_t* positions, int64_t n);
    void truncate(int64_t n);
    void clear() { truncate(0); }

    // Bytes of this sequence's blocks (shared ones included) in RAM and on disk.
    size_t ram_bytes() const;
    size_t disk_bytes() const;
    BlockPool* pool() const { return pool_.get(); }
    uint32_t n_layers() const { return static_cast<uint32_t>(tables_.size()); }
    bool layer_has_rows(uint32_t il) const { return has_rows_[il]; }
    const std::vector<BlockId>& blocks(uint32_t layer) const { return tables_[layer]; }
    // Takes the blocks of every layer from `per_layer` (retaining them) as this sequence's first
    // n_tokens tokens (per layer ceil(n_tokens / block_tokens) blocks). The sequence must be
    // empty.
    void adopt(const std::vector<std::vector<BlockId>>& per_layer, int64_t n_tokens);
    // The sequence's RAM outside the blocks, counted against the pool's budget.
    void set_fixed(int64_t kv_bytes, int64_t state_bytes) {
        pool_->set_fixed(account_, kv_bytes, state_bytes);
    }

private:
    void release_all();

    std::shared_ptr<BlockPool> pool_;
    std::vector<bool> has_rows_;
    std::vector<std::vector<BlockId>> tables_;
    int64_t n_tokens_ = 0;
    int64_t max_tokens_ = 0;
    int account_ = -1;
};

} // namespace folio
