#include "model/attention/index_key_cache.h"

#include <algorithm>
#include <string>

namespace folio {

namespace {

int64_t tiles_for(int64_t n) {
    return (n + kIndexTile - 1) / kIndexTile;
}

} // namespace

IndexKeyCache::IndexKeyCache(uint32_t n_layer, uint32_t dim, int64_t max_tokens, KvType type)
    : type_(type == KvType::BF16 ? KvType::F16 : type),
      format_(type_ == KvType::F16    ? IndexKeyFormat::F16
              : type_ == KvType::Q8_0 ? IndexKeyFormat::Q8_0
                                      : IndexKeyFormat::F32),
      dim_(dim), tile_bytes_(index_tile_bytes(format_, index_stored_dim(format_, dim))),
      max_tokens_(max_tokens), layers_(n_layer) {}

Status IndexKeyCache::append(uint32_t layer, const float* rows, int64_t n) {
    if (layer >= layers_.size())
        return make_error(ErrorCode::Internal,
                          "index key layer " + std::to_string(layer) + " out of range");
    if (n_tokens_ + n > max_tokens_)
        return make_error(ErrorCode::InvalidArgument,
                          "context is full: " + std::to_string(n_tokens_) + " + " +
                              std::to_string(n) + " tokens exceed the limit of " +
                              std::to_string(max_tokens_));
    HugeBytes& tiles = layers_[layer];
    tiles.resize(static_cast<size_t>(tiles_for(n_tokens_ + n)) * tile_bytes_);
    index_store_keys(format_, rows, n, dim_, n_tokens_, tiles.data());
    return {};
}

size_t IndexKeyCache::bytes_for(int64_t n) const {
    return static_cast<size_t>(tiles_for(n)) * tile_bytes_;
}

Status IndexKeyCache::append_raw(uint32_t layer, const uint8_t* tiles, int64_t n) {
    if (layer >= layers_.size() || n_tokens_ % kIndexTile != 0)
        return make_error(ErrorCode::Internal, "raw index keys must start a tile");
    if (n_tokens_ + n > max_tokens_)
        return make_error(ErrorCode::InvalidArgument,
                          "context is full: " + std::to_string(n_tokens_) + " + " +
                              std::to_string(n) + " tokens exceed the limit of " +
                              std::to_string(max_tokens_));
    HugeBytes& dst = layers_[layer];
    const size_t at = bytes_for(n_tokens_);
    dst.resize(bytes_for(n_tokens_ + n));
    std::copy(tiles, tiles + bytes_for(n), dst.data() + at);
    return {};
}

void IndexKeyCache::read(uint32_t layer, int64_t pos, float* out) const {
    index_load_key(format_, layers_[layer].data(), pos, dim_, out);
}

void IndexKeyCache::truncate(int64_t n) {
    if (n < n_tokens_)
        n_tokens_ = n < 0 ? 0 : n;
    for (auto& tiles : layers_)
        tiles.resize(static_cast<size_t>(tiles_for(n_tokens_)) * tile_bytes_);
}

size_t IndexKeyCache::bytes() const {
    size_t total = 0;
    for (const auto& tiles : layers_)
        total += tiles.capacity();
    return total;
}

} // namespace folio
