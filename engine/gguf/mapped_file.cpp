#include "gguf/mapped_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace folio::gguf {

namespace {

Error os_error(const std::string& path, const char* what, int err) {
    ErrorCode code = err == ENOENT || err == ENOTDIR ? ErrorCode::NotFound : ErrorCode::Io;
    return make_error(code, path + ": " + what + ": " + std::strerror(err));
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
        void* p = ::mmap(nullptr, m.size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int err = errno;
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

} // namespace folio::gguf
