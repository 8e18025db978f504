#pragma once
// RAM for KV blocks, carved from 2 MiB-aligned slabs that the kernel may back with transparent
// huge pages (madvise MADV_HUGEPAGE). A sparse-attention decode step reads ~2048 rows scattered
// over a cache of hundreds of MiB: with 4 KiB pages nearly every row costs a TLB miss and a page
// walk, with 2 MiB pages the whole cache fits the TLB. Slabs whose blocks are all free are
// returned to the system once more than one slab's worth of blocks is free.
//
// Single-threaded, like the block pool that owns it.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace folio {

class RamSlabs {
public:
    explicit RamSlabs(size_t block_bytes);
    ~RamSlabs();
    RamSlabs(const RamSlabs&) = delete;
    RamSlabs& operator=(const RamSlabs&) = delete;

    // A block of block_bytes (64-byte aligned, contents undefined); null when out of memory.
    uint8_t* allocate();
    // Returns a block from allocate().
    void free(uint8_t* block);

    size_t blocks_per_slab() const { return per_slab_; }
    size_t slab_count() const { return slabs_.size(); }

private:
    struct Slab {
        uint8_t* base = nullptr;
        size_t used = 0;
    };
    // The first slab whose base is above p (slabs_ is sorted by base).
    std::vector<Slab>::const_iterator slab_above(const uint8_t* p) const;
    size_t slab_of(const uint8_t* block) const;
    void release_empty_slab();

    size_t block_bytes_, per_slab_, slab_bytes_;
    std::vector<Slab> slabs_;    // sorted by base
    std::vector<uint8_t*> free_; // free blocks of the slabs
};

} // namespace folio
