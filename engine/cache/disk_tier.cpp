#include "cache/disk_tier.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

namespace folio {

namespace {

constexpr size_t kPage = 4096;
constexpr size_t kChunkTarget = size_t{16} << 20; // grow the file 16 MiB at a time

size_t round_up(size_t v, size_t to) {
    return (v + to - 1) / to * to;
}

} // namespace

DiskTier::~DiskTier() {
    guards_.clear();
    for (uint8_t* c : chunks_)
        munmap(c, chunk_bytes_);
    if (fd_ >= 0)
        close(fd_);
}

Expected<std::unique_ptr<DiskTier>> DiskTier::open(const std::string& dir, size_t slot_bytes,
                                                   int64_t budget) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        return make_error(ErrorCode::Io,
                          "offload folder " + dir + " cannot be created: " + ec.message());
    auto t = std::make_unique<DiskTier>();
    t->slot_bytes_ = round_up(slot_bytes, kPage);
    t->slots_per_chunk_ = static_cast<int64_t>(std::max<size_t>(1, kChunkTarget / t->slot_bytes_));
    t->chunk_bytes_ = static_cast<size_t>(t->slots_per_chunk_) * t->slot_bytes_;
    t->budget_ = budget;
#ifdef O_TMPFILE
    t->fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    t->path_ = dir + "/(unnamed)";
#endif
    if (t->fd_ < 0) {
        std::string tmpl = dir + "/folio-kv-XXXXXX";
        t->fd_ = mkostemp(tmpl.data(), O_CLOEXEC);
        if (t->fd_ < 0)
            return make_error(ErrorCode::Io, "offload folder " + dir +
                                                 " is not writable: " + std::strerror(errno));
        unlink(tmpl.c_str());
        t->path_ = tmpl + " (unlinked)";
    }
    return t;
}

Expected<int64_t> DiskTier::acquire() {
    if (!free_.empty()) {
        const int64_t slot = free_.back();
        free_.pop_back();
        ++used_;
        return slot;
    }
    const int64_t n = static_cast<int64_t>(chunks_.size());
    if (budget_ >= 0 && static_cast<int64_t>((n + 1) * chunk_bytes_) > budget_)
        return make_error(ErrorCode::Io,
                          "disk tier budget of " + std::to_string(budget_) + " bytes is used up");
    const off_t off = static_cast<off_t>(n * chunk_bytes_);
    const int rc = posix_fallocate(fd_, off, static_cast<off_t>(chunk_bytes_));
    if (rc != 0)
        return make_error(ErrorCode::Io, "disk tier full (" + path_ + "): " + std::strerror(rc));
    void* p = mmap(nullptr, chunk_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, off);
    if (p == MAP_FAILED)
        return make_error(ErrorCode::Io,
                          std::string("disk tier mmap failed: ") + std::strerror(errno));
    chunks_.push_back(static_cast<uint8_t*>(p));
    guards_.emplace_back(p, chunk_bytes_, true);
    for (int64_t s = (n + 1) * slots_per_chunk_ - 1; s > n * slots_per_chunk_; --s)
        free_.push_back(s);
    ++used_;
    return n * slots_per_chunk_;
}

uint64_t DiskTier::read_faults() const {
    uint64_t n = 0;
    for (const FaultGuard& g : guards_)
        n += g.faults();
    return n;
}

void DiskTier::release(int64_t slot) {
    free_.push_back(slot);
    --used_;
}

uint8_t* DiskTier::data(int64_t slot) const {
    return chunks_[static_cast<size_t>(slot / slots_per_chunk_)] +
           static_cast<size_t>(slot % slots_per_chunk_) * slot_bytes_;
}

void DiskTier::prefetch(int64_t slot) const {
    madvise(data(slot), slot_bytes_, MADV_WILLNEED);
}

void DiskTier::drop_resident(int64_t slot) const {
    madvise(data(slot), slot_bytes_, MADV_DONTNEED);
}

} // namespace folio
