#pragma once
// A file written under a temporary name in the destination folder and renamed into place only
// after everything was written and fsync'ed: readers never see a half-written file, and a
// failure (disk full, I/O error) leaves the destination untouched.

#include "folio/error.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace folio::gguf {

class AtomicFile {
public:
    static Expected<std::unique_ptr<AtomicFile>> create(const std::string& path);
    ~AtomicFile(); // removes the temporary file unless commit() succeeded
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    Status write(std::span<const uint8_t> bytes);
    Status write_zeros(uint64_t n);
    uint64_t bytes_written() const { return written_; }
    // Flushes, fsyncs, closes and renames the temporary file to the destination.
    Status commit();

private:
    AtomicFile() = default;
    Status flush();
    Status write_fd(const uint8_t* p, size_t n);
    Error io_error(const std::string& what, int err) const;

    std::string path_;
    std::string temp_path_;
    int fd_ = -1;
    uint64_t written_ = 0;
    std::vector<uint8_t> buffer_;
    bool committed_ = false;
};

} // namespace folio::gguf
