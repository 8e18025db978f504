#pragma once
// The identity of one prompt position, as prefix reuse compares them: a text position is its
// token id; an image row is a key made of the image's content hash and the row index, with bit
// 63 set, so a cached prefix matches a new prompt only where the same pixels were embedded (all
// image rows share one placeholder token).

#include <cstdint>

namespace folio {

constexpr uint64_t kImageKeyBit = 1ull << 63;

inline uint64_t token_key(int32_t id) {
    return static_cast<uint32_t>(id);
}

inline uint64_t image_row_key(uint64_t image_hash, int64_t row) {
    return kImageKeyBit |
           ((image_hash * 0x100000001b3ull + static_cast<uint64_t>(row)) & ~kImageKeyBit);
}

inline bool is_image_key(uint64_t key) {
    return (key & kImageKeyBit) != 0;
}

} // namespace folio
