#include "cache/paged_kv.h"

#include <string>
#include <utility>

namespace folio {

PagedKv::PagedKv(std::shared_ptr<BlockPool> pool, const std::vector<bool>& layer_rows,
                 int64_t max_tokens)
    : pool_(std::move(pool)), has_rows_(layer_rows), tables_(layer_rows.size()),
      max_tokens_(max_tokens), account_(pool_->open_account()) {}

PagedKv::~PagedKv() {
    release_all();
}

PagedKv::PagedKv(PagedKv&& o) noexcept
    : pool_(std::move(o.pool_)), has_rows_(std::move(o.has_rows_)), tables_(std::move(o.tables_)),
      n_tokens_(o.n_tokens_), max_tokens_(o.max_tokens_), account_(o.account_) {
    o.tables_.clear();
    o.n_tokens_ = 0;
    o.account_ = -1;
}

PagedKv& PagedKv::operator=(PagedKv&& o) noexcept {
    if (this != &o) {
        release_all();
        pool_ = std::move(o.pool_);
        has_rows_ = std::move(o.has_rows_);
        tables_ = std::move(o.tables_);
        n_tokens_ = o.n_tokens_;
        max_tokens_ = o.max_tokens_;
        account_ = o.account_;
        o.tables_.clear();
        o.n_tokens_ = 0;
        o.account_ = -1;
    }
    return *this;
}

void PagedKv::release_all() {
    if (!pool_)
        return;
    if (account_ >= 0)
        pool_->close_account(account_);
    account_ = -1;
    for (auto& t : tables_) {
        for (BlockId id : t)
            pool_->release(id);
        t.clear();
    }
}

Status PagedKv::store(uint32_t layer, const float* rows, int64_t n) {
    if (layer >= tables_.size() || !has_rows_[layer])
        return make_error(ErrorCode::Internal,
                          "cache layer " + std::to_string(layer) + " holds no rows");
    if (n_tokens_ + n > max_tokens_)
        return make_error(ErrorCode::InvalidArgument,
                          "context is full: " + std::to_string(n_tokens_) + " + " +
                              std::to_string(n) + " tokens exceed the limit of " +
                              std::to_string(max_tokens_));
    BlockPool& pool = *pool_;
    const int64_t bt = pool.config().block_tokens, rf = pool.config().row_floats;
    const size_t rb = pool.row_bytes();
    std::vector<BlockId>& table = tables_[layer];
    int64_t p = n_tokens_;
    for (int64_t done = 0; done < n;) {
        const int64_t b = p / bt, r = p % bt;
        if (b >= static_cast<int64_t>(table.size())) {
            FOLIO_TRY(id, pool.allocate(b));
            table.push_back(id);
        } else if (pool.refs(table[b]) > 1 || pool.on_disk(table[b])) {
            FOLIO_TRY(id, pool.copy(table[b]));
            pool.release(table[b]);
            table[b] = id;
        }
        const BlockId id = table[b];
        pool.touch(id);
        uint8_t* dst = pool.data(id);
        const int64_t m = std::min(n - done, bt - r);
        for (int64_t i = 0; i < m; ++i)
            kv_encode_row(pool.config().type, rows + (done + i) * rf, rf, dst + (r + i) * rb);
        done += m;
        p += m;
    }
    return {};
}

KvView PagedKv::view(uint32_t layer, int64_t n_rows, bool mark_all) {
    BlockPool& pool = *pool_;
    KvView v;
    v.n_rows = n_rows;
    v.row_floats = pool.config().row_floats;
    v.block_tokens = pool.config().block_tokens;
    v.type = pool.config().type;
    v.row_bytes = pool.row_bytes();
    const std::vector<BlockId>& table = tables_[layer];
    const int64_t nb = v.n_blocks();
    v.raw.resize(static_cast<size_t>(nb));
    for (int64_t b = 0; b < nb; ++b) {
        const BlockId id = table[b];
        if (mark_all) {
            pool.touch(id);
            pool.prefetch(id);
        }
        v.raw[b] = pool.data(id);
    }
    return v;
}

void PagedKv::mark_rows(uint32_t layer, const int32_t* positions, int64_t n) {
    BlockPool& pool = *pool_;
    const int64_t bt = pool.config().block_tokens;
    const std::vector<BlockId>& table = tables_[layer];
    const uint64_t step = pool.step();
    for (int64_t i = 0; i < n; ++i) {
        const BlockId id = table[positions[i] / bt];
        if (pool.last_use(id) == step)
            continue;
        pool.touch(id);
        pool.prefetch(id);
    }
}

void PagedKv::truncate(int64_t n) {
    if (n < n_tokens_)
        n_tokens_ = n < 0 ? 0 : n;
    if (!pool_)
        return;
    const int64_t bt = pool_->config().block_tokens;
    const size_t keep = static_cast<size_t>((n_tokens_ + bt - 1) / bt);
    for (auto& t : tables_) {
        while (t.size() > keep) {
            pool_->release(t.back());
            t.pop_back();
        }
    }
}

size_t PagedKv::ram_bytes() const {
    size_t total = 0;
    for (const auto& t : tables_)
        for (BlockId id : t)
            if (!pool_->on_disk(id))
                total += pool_->block_bytes();
    return total;
}

size_t PagedKv::disk_bytes() const {
    size_t total = 0;
    for (const auto& t : tables_)
        for (BlockId id : t)
            if (pool_->on_disk(id))
                total += pool_->block_bytes();
    return total;
}

void PagedKv::adopt(const std::vector<std::vector<BlockId>>& per_layer, int64_t n_tokens) {
    const int64_t n_blocks = (n_tokens + block_tokens() - 1) / block_tokens();
    for (size_t il = 0; il < tables_.size(); ++il) {
        if (!has_rows_[il])
            continue;
        for (int64_t b = 0; b < n_blocks; ++b) {
            const BlockId id = per_layer[il][b];
            pool_->retain(id);
            tables_[il].push_back(id);
        }
    }
    n_tokens_ = n_tokens;
}

} // namespace folio
