#include "gguf/mapped_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace folio::gguf {

namespace {

constexpr uint64_t kHugePage = uint64_t{2} << 20;

Error os_error(const std::string& path, const char* what, int err) {
    ErrorCode code = err == ENOENT || err == ENOTDIR ? ErrorCode::NotFound : ErrorCode::Io;
    return make_error(code, path + ": " + what + ": " + std::strerror(err));
}

uint64_t page_rounded(uint64_t n) {
    const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    return (n + page - 1) / page * page;
}

// `bytes` (page-rounded) of anonymous memory starting on a 2 MiB boundary: a reservation
// without access (PROT_NONE, MAP_NORESERVE) for a file mapping to replace, or writable memory
// charged against the system's commit limit now (so a copy that cannot fit fails here, not
// later by the out-of-memory killer); nullptr when refused.
uint8_t* map_aligned(uint64_t bytes, bool writable) {
    void* r = ::mmap(nullptr, bytes + kHugePage, writable ? PROT_READ | PROT_WRITE : PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | (writable ? 0 : MAP_NORESERVE), -1, 0);
    if (r == MAP_FAILED)
        return nullptr;
    auto* base = static_cast<uint8_t*>(r);
    auto* aligned = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(base) + kHugePage - 1) /
                                               kHugePage * kHugePage);
    if (aligned > base)
        ::munmap(base, static_cast<size_t>(aligned - base));
    const uint64_t tail = static_cast<uint64_t>(base + bytes + kHugePage - (aligned + bytes));
    if (tail > 0)
        ::munmap(aligned + bytes, tail);
    return aligned;
}

} // namespace

Expected<Mapping> map_file_readonly(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return os_error(path, "cannot open", errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        int err = errno;
        ::close(fd);
        return os_error(path, "cannot stat", err);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return make_error(ErrorCode::Io, path + ": not a regular file");
    }
    Mapping m;
    m.size = static_cast<uint64_t>(st.st_size);
    if (m.size > 0) {
        uint8_t* at = map_aligned(page_rounded(m.size), false);
        void* p = at == nullptr ? MAP_FAILED
                                : ::mmap(at, m.size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
        if (p == MAP_FAILED) {
            int err = errno; // set by whichever mmap failed
            if (at != nullptr)
                ::munmap(at, page_rounded(m.size));
            ::close(fd);
            return os_error(path, "cannot mmap", err);
        }
        m.data = static_cast<const uint8_t*>(p);
    }
    ::close(fd); // the mapping stays valid without the descriptor
    return m;
}

void unmap_file(const Mapping& m) {
    if (m.data != nullptr && m.size > 0)
        ::munmap(const_cast<uint8_t*>(m.data), m.size);
}

Expected<bool> copy_mapping_into_memory(const Mapping& m,
                                        const std::function<bool(uint64_t)>& keep_going) {
    if (m.data == nullptr || m.size == 0)
        return true;
    const uint64_t bytes = page_rounded(m.size);
    uint8_t* copy = map_aligned(bytes, true);
    if (copy == nullptr) {
        const int err = errno;
        return make_error(ErrorCode::Io, std::string("cannot allocate a copy of the weights: ") +
                                             std::strerror(err));
    }
#if defined(MADV_HUGEPAGE)
    ::madvise(copy, bytes, MADV_HUGEPAGE); // a hint: without transparent huge pages, 4 KiB pages
#endif
    constexpr uint64_t kStep = uint64_t{64} << 20;
    for (uint64_t done = 0; done < m.size;) {
        const uint64_t n = std::min(kStep, m.size - done);
        std::memcpy(copy + done, m.data + done, n);
        done += n;
        if (keep_going && !keep_going(done)) {
            ::munmap(copy, bytes);
            return false;
        }
    }
    // Read-only like the mapping it replaces; then moved over it in one step (the kernel swaps
    // the page tables: no moment without pages at those addresses).
    void* moved = MAP_FAILED;
    if (::mprotect(copy, bytes, PROT_READ) == 0)
        moved = ::mremap(copy, bytes, bytes, MREMAP_MAYMOVE | MREMAP_FIXED,
                         const_cast<uint8_t*>(m.data));
    if (moved == MAP_FAILED) {
        const int err = errno;
        ::munmap(copy, bytes);
        return make_error(ErrorCode::Io, std::string("cannot place the copy of the weights: ") +
                                             std::strerror(err));
    }
    return true;
}

} // namespace folio::gguf
