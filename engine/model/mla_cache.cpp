#include "model/mla_cache.h"

#include <string>

namespace folio {

Expected<float*> MlaCache::append(uint32_t layer, int64_t n) {
    if (layer >= layers_.size())
        return make_error(ErrorCode::Internal,
                          "cache layer " + std::to_string(layer) + " out of range");
    if (n_tokens_ + n > max_tokens_)
        return make_error(ErrorCode::InvalidArgument,
                          "context is full: " + std::to_string(n_tokens_) + " + " +
                              std::to_string(n) + " tokens exceed the limit of " +
                              std::to_string(max_tokens_));
    std::vector<float>& rows = layers_[layer];
    rows.resize(static_cast<size_t>((n_tokens_ + n) * row_));
    return rows.data() + n_tokens_ * row_;
}

void MlaCache::truncate(int64_t n) {
    if (n < n_tokens_)
        n_tokens_ = n < 0 ? 0 : n;
    for (auto& rows : layers_)
        rows.resize(static_cast<size_t>(n_tokens_ * row_));
}

size_t MlaCache::bytes() const {
    size_t total = 0;
    for (const auto& rows : layers_)
        total += rows.capacity() * sizeof(float);
    return total;
}

} // namespace folio
