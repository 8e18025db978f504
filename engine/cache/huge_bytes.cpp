#include "cache/huge_bytes.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace folio {

uint8_t* allocate_huge_pages(size_t bytes) {
    bytes = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    auto* p = static_cast<uint8_t*>(std::aligned_alloc(kHugePageBytes, bytes));
#if defined(MADV_HUGEPAGE)
    if (p)
        madvise(p, bytes, MADV_HUGEPAGE); // a hint: without THP, 4 KiB pages
#endif
    return p;
}

namespace {

constexpr size_t kLarge = size_t(1) << 20;

uint8_t* allocate(size_t bytes) {
    auto* p = bytes >= kLarge
                  ? allocate_huge_pages(bytes)
                  : static_cast<uint8_t*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64));
    if (!p)
        throw std::bad_alloc();
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
