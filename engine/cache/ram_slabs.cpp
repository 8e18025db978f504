#include "cache/ram_slabs.h"

#include "cache/huge_bytes.h"

#include <algorithm>
#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__)
#define FOLIO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FOLIO_ASAN 1
#endif
#endif
#if defined(FOLIO_ASAN)
#include <sanitizer/asan_interface.h>
#endif

namespace folio {

namespace {

constexpr size_t kAlign = 64;

// Free blocks are poisoned under ASan, so a row written past its block's end into a free
// neighbour is still reported.
void poison(uint8_t* p, size_t n) {
#if defined(FOLIO_ASAN)
    ASAN_POISON_MEMORY_REGION(p, n);
#else
    (void)p;
    (void)n;
#endif
}

void unpoison(uint8_t* p, size_t n) {
#if defined(FOLIO_ASAN)
    ASAN_UNPOISON_MEMORY_REGION(p, n);
#else
    (void)p;
    (void)n;
#endif
}

} // namespace

RamSlabs::RamSlabs(size_t block_bytes)
    : block_bytes_((std::max<size_t>(block_bytes, 1) + kAlign - 1) / kAlign * kAlign),
      per_slab_(std::max<size_t>(1, kHugePageBytes / block_bytes_)),
      slab_bytes_((per_slab_ * block_bytes_ + kHugePageBytes - 1) / kHugePageBytes *
                  kHugePageBytes) {}

RamSlabs::~RamSlabs() {
    for (const Slab& s : slabs_) {
        unpoison(s.base, slab_bytes_);
        std::free(s.base);
    }
}

std::vector<RamSlabs::Slab>::const_iterator RamSlabs::slab_above(const uint8_t* p) const {
    return std::upper_bound(slabs_.begin(), slabs_.end(), p,
                            [](const uint8_t* x, const Slab& s) { return x < s.base; });
}

size_t RamSlabs::slab_of(const uint8_t* block) const {
    return static_cast<size_t>(slab_above(block) - slabs_.begin()) - 1;
}

uint8_t* RamSlabs::allocate() {
    if (free_.empty()) {
        uint8_t* base = allocate_huge_pages(slab_bytes_);
        if (!base)
            return nullptr;
        poison(base, slab_bytes_);
        Slab s;
        s.base = base;
        slabs_.insert(slab_above(base), s);
        // Handed out from the slab's start: pages are touched in order.
        for (size_t i = per_slab_; i-- > 0;)
            free_.push_back(base + i * block_bytes_);
    }
    uint8_t* block = free_.back();
    free_.pop_back();
    ++slabs_[slab_of(block)].used;
    unpoison(block, block_bytes_);
    return block;
}

void RamSlabs::free(uint8_t* block) {
    if (!block)
        return;
    poison(block, block_bytes_);
    free_.push_back(block);
    --slabs_[slab_of(block)].used;
    if (free_.size() > 2 * per_slab_)
        release_empty_slab();
}

void RamSlabs::release_empty_slab() {
    auto empty =
        std::find_if(slabs_.begin(), slabs_.end(), [](const Slab& s) { return s.used == 0; });
    if (empty == slabs_.end())
        return;
    uint8_t* base = empty->base;
    uint8_t* end = base + slab_bytes_;
    free_.erase(std::remove_if(free_.begin(), free_.end(),
                               [&](const uint8_t* p) { return p >= base && p < end; }),
                free_.end());
    slabs_.erase(empty);
    unpoison(base, slab_bytes_);
    std::free(base);
}

} // namespace folio
