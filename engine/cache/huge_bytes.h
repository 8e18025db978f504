#pragma once
// A growable byte array whose large allocations are 2 MiB-aligned and advised for transparent
// huge pages (madvise MADV_HUGEPAGE), for arrays that every decode step scans in full (the DSA
// index keys: ~9 MiB per layer at 128K tokens). With 4 KiB pages the hardware prefetchers stop
// at every page boundary and the TLB cannot cover the array. Small arrays (< 1 MiB) are plain
// 64-byte-aligned allocations.

#include <cstddef>
#include <cstdint>

namespace folio {

inline constexpr size_t kHugePageBytes = size_t(2) << 20;

// bytes (rounded up to a multiple of 2 MiB) of 2 MiB-aligned memory advised MADV_HUGEPAGE;
// null when out of memory. Free with std::free.
uint8_t* allocate_huge_pages(size_t bytes);

class HugeBytes {
public:
    HugeBytes() = default;
    ~HugeBytes();
    HugeBytes(const HugeBytes& other);
    HugeBytes& operator=(const HugeBytes& other);
    HugeBytes(HugeBytes&& other) noexcept;
    HugeBytes& operator=(HugeBytes&& other) noexcept;

    // Keeps the first min(n, size()) bytes; new bytes are zero. Grows the capacity by doubling.
    // Throws std::bad_alloc when out of memory, like std::vector.
    void resize(size_t n);

    uint8_t* data() { return data_; }
    const uint8_t* data() const { return data_; }
    size_t size() const { return size_; }
    size_t capacity() const { return capacity_; }

private:
    void reserve(size_t n);

    uint8_t* data_ = nullptr;
    size_t size_ = 0, capacity_ = 0;
};

} // namespace folio
