#include "gguf/atomic_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace folio::gguf {

namespace {

constexpr size_t kBufferBytes = size_t(1) << 20;

std::string parent_dir(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

} // namespace

Error AtomicFile::io_error(const std::string& what, int err) const {
    std::string msg =
        path_ + ": " + what + " at byte " + std::to_string(written_) + ": " + std::strerror(err);
    if (err == ENOSPC || err == EDQUOT)
        msg += " (disk full)";
    else if (err == EFBIG)
        msg += " (the file size limit was reached)";
    return make_error(ErrorCode::Io, std::move(msg));
}

Expected<std::unique_ptr<AtomicFile>> AtomicFile::create(const std::string& path) {
    std::unique_ptr<AtomicFile> f(new AtomicFile());
    f->path_ = path;
    std::string templ = path + ".tmp-XXXXXX";
    std::vector<char> name(templ.begin(), templ.end());
    name.push_back('\0');
    f->fd_ = ::mkstemp(name.data());
    if (f->fd_ < 0) {
        int err = errno;
        return make_error(err == ENOENT ? ErrorCode::NotFound : ErrorCode::Io,
                          path + ": cannot create a temporary file in " + parent_dir(path) + ": " +
                              std::strerror(err));
    }
    f->temp_path_ = name.data();
    ::fchmod(f->fd_, 0644); // mkstemp creates 0600; a model file is meant to be shared
    f->buffer_.reserve(kBufferBytes);
    return f;
}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0)
        ::close(fd_);
    if (!committed_ && !temp_path_.empty())
        ::unlink(temp_path_.c_str());
}

Status AtomicFile::write_fd(const uint8_t* p, size_t n) {
    while (n > 0) {
        ssize_t w = ::write(fd_, p, std::min<size_t>(n, size_t(1) << 30));
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return io_error("write failed", errno);
        }
        if (w == 0)
            return io_error("write made no progress", EIO);
        p += w;
        n -= static_cast<size_t>(w);
    }
    return {};
}

Status AtomicFile::flush() {
    if (buffer_.empty())
        return {};
    Status s = write_fd(buffer_.data(), buffer_.size());
    buffer_.clear();
    return s;
}

Status AtomicFile::write(std::span<const uint8_t> bytes) {
    if (fd_ < 0)
        return make_error(ErrorCode::Internal, path_ + ": write after close");
    if (buffer_.size() + bytes.size() > kBufferBytes) {
        FOLIO_CHECK(flush());
        if (bytes.size() >= kBufferBytes) {
            FOLIO_CHECK(write_fd(bytes.data(), bytes.size()));
            written_ += bytes.size();
            return {};
        }
    }
    buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
    written_ += bytes.size();
    return {};
}

Status AtomicFile::write_zeros(uint64_t n) {
    static const uint8_t zeros[4096] = {};
    while (n > 0) {
        const size_t k = static_cast<size_t>(std::min<uint64_t>(n, sizeof zeros));
        FOLIO_CHECK(write(std::span<const uint8_t>(zeros, k)));
        n -= k;
    }
    return {};
}

Status AtomicFile::commit() {
    if (fd_ < 0)
        return make_error(ErrorCode::Internal, path_ + ": commit after close");
    FOLIO_CHECK(flush());
    if (::fsync(fd_) != 0)
        return io_error("fsync failed", errno);
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0)
        return io_error("close failed", errno);
    if (::rename(temp_path_.c_str(), path_.c_str()) != 0)
        return io_error("rename of " + temp_path_ + " failed", errno);
    committed_ = true;
    // Make the rename itself durable; failure here does not undo a complete file.
    int dir = ::open(parent_dir(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return {};
}

} // namespace folio::gguf
