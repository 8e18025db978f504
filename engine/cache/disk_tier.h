#pragma once
// The disk tier of the KV cache: fixed-size slots in one unnamed file inside the offload
// folder (O_TMPFILE, or a created-and-unlinked file where the file system lacks it), so nothing
// is left behind after a crash. Space is reserved with posix_fallocate in chunks before it is
// mapped (MAP_SHARED), so a full disk shows up as an error here and never as SIGBUS on a later
// write through the mapping. Blocks are read back through the mapping: the kernel's page cache
// and readahead (madvise WILLNEED) bring them in ahead of use.

#include "core/fault_guard.h"
#include "folio/error.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace folio {

class DiskTier {
public:
    DiskTier() = default;
    ~DiskTier();
    DiskTier(const DiskTier&) = delete;
    DiskTier& operator=(const DiskTier&) = delete;

    // Opens the tier in `dir` (created if missing). budget < 0: until the disk is full.
    static Expected<std::unique_ptr<DiskTier>> open(const std::string& dir, size_t slot_bytes,
                                                    int64_t budget);

    // A free slot, growing the file when needed. Error when the disk (or the budget) is full.
    Expected<int64_t> acquire();
    void release(int64_t slot);
    uint8_t* data(int64_t slot) const;
    // Asks the kernel to read the slot in ahead of use.
    void prefetch(int64_t slot) const;
    // Drops the slot's pages from this process's mapping after a write (they stay in the file
    // and the page cache), so the resident set reflects the RAM tier only.
    void drop_resident(int64_t slot) const;

    // Pages that could not be read back or written since opening (an I/O error on the disk, the
    // file truncated): they now hold zeros, so KV rows read since the last check are wrong.
    uint64_t read_faults() const;

    size_t slot_bytes() const { return slot_bytes_; }
    int64_t used_slots() const { return used_; }
    int64_t file_bytes() const { return static_cast<int64_t>(chunks_.size()) * chunk_bytes_; }
    const std::string& path() const { return path_; }

private:
    int fd_ = -1;
    std::string path_;
    size_t slot_bytes_ = 0;
    size_t chunk_bytes_ = 0;
    int64_t slots_per_chunk_ = 0;
    int64_t budget_ = -1;
    std::vector<uint8_t*> chunks_;
    std::vector<FaultGuard> guards_; // one per chunk: SIGBUS there becomes a counted fault
    std::vector<int64_t> free_;
    int64_t used_ = 0;
};

} // namespace folio
