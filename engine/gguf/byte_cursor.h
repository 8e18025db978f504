#pragma once
// A bounds-checked little-endian reader over a byte range. Every read either succeeds or
// leaves the cursor unchanged and returns false; the caller turns that into an Error that
// names the field and pos().

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace folio::gguf {

// GGUF files are little-endian (big-endian ones are refused); scalars are copied as-is.
static_assert(std::endian::native == std::endian::little,
              "the GGUF reader assumes a little-endian host");

class ByteCursor {
public:
    ByteCursor(const uint8_t* data, uint64_t size) : data_(data), size_(size) {}

    uint64_t pos() const { return pos_; }
    uint64_t size() const { return size_; }
    uint64_t remaining() const { return size_ - pos_; }

    template <typename T> bool read(T& out) {
        static_assert(std::is_trivially_copyable_v<T>);
        if (remaining() < sizeof(T))
            return false;
        std::memcpy(&out, data_ + pos_, sizeof(T));
        pos_ += sizeof(T);
        return true;
    }

    // A view of the next n bytes (into the underlying buffer).
    bool read_bytes(uint64_t n, std::string_view& out) {
        if (remaining() < n)
            return false;
        out = std::string_view(reinterpret_cast<const char*>(data_ + pos_), n);
        pos_ += n;
        return true;
    }

private:
    const uint8_t* data_;
    uint64_t size_;
    uint64_t pos_ = 0;
};

} // namespace folio::gguf
