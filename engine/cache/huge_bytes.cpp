#include "cache/huge_bytes.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace folio {

namespace {

constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kLarge = size_t(1) << 20;

uint8_t* allocate(size_t bytes) {
    const size_t align = bytes >= kLarge ? kHugePage : 64;
    bytes = (bytes + align - 1) / align * align;
    auto* p = static_cast<uint8_t*>(std::aligned_alloc(align, bytes));
    if (!p)
        throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
    if (align == kHugePage)
        madvise(p, bytes, MADV_HUGEPAGE); // a hint: without THP, 4 KiB pages
#endif
    return p;
}

} // namespace

HugeBytes::~HugeBytes() {
    std::free(data_);
}

HugeBytes::HugeBytes(const HugeBytes& other) {
    resize(other.size_);
    if (size_ > 0)
        std::memcpy(data_, other.data_, size_);
}

HugeBytes& HugeBytes::operator=(const HugeBytes& other) {
    if (this != &other) {
        size_ = 0;
        resize(other.size_);
        if (size_ > 0)
            std::memcpy(data_, other.data_, size_);
    }
    return *this;
}

HugeBytes::HugeBytes(HugeBytes&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

HugeBytes& HugeBytes::operator=(HugeBytes&& other) noexcept {
    if (this != &other) {
        std::free(data_);
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
        capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
}

void HugeBytes::reserve(size_t n) {
    if (n <= capacity_)
        return;
    const size_t cap = std::max(n, capacity_ * 2);
    uint8_t* p = allocate(cap);
    if (size_ > 0)
        std::memcpy(p, data_, size_);
    std::free(data_);
    data_ = p;
    capacity_ = cap;
}

void HugeBytes::resize(size_t n) {
    reserve(n);
    if (n > size_)
        std::memset(data_ + size_, 0, n - size_);
    size_ = n;
}

} // namespace folio
