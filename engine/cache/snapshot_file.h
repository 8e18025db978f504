#pragma once
// The container of a KV-cache snapshot (docs/KV_CACHE.md "Snapshots"): a versioned header, then
// sections, each followed by a 64-bit checksum of its bytes, then an end marker. The writer goes
// through an AtomicFile (temp file, fsync, rename): an interrupted save leaves any earlier
// snapshot intact. The reader maps the file and hands out sections only after their checksum
// matched, with messages that name the file, the section and the byte offset.

#include "folio/error.h"
#include "gguf/atomic_file.h"
#include "gguf/mapped_file.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace folio {

// Fast 64-bit checksum (four multiply-xorshift lanes over 8-byte words; not cryptographic).
uint64_t checksum64(const uint8_t* p, size_t n);

constexpr char kSnapshotMagic[8] = {'F', 'O', 'L', 'I', 'O', 'K', 'V', '\0'};
constexpr uint32_t kSnapshotVersion = 1;

class SnapshotWriter {
public:
    static Expected<std::unique_ptr<SnapshotWriter>> create(const std::string& path);
    // One section: its bytes, then their checksum.
    Status section(std::span<const uint8_t> bytes);
    Status section(const void* p, size_t n) {
        return section(std::span<const uint8_t>(static_cast<const uint8_t*>(p), n));
    }
    Status commit(); // end marker, fsync, rename
    uint64_t bytes_written() const { return file_->bytes_written(); }

private:
    SnapshotWriter() = default;
    std::unique_ptr<gguf::AtomicFile> file_;
};

class SnapshotReader {
public:
    static Expected<std::unique_ptr<SnapshotReader>> open(const std::string& path);
    ~SnapshotReader();
    SnapshotReader(const SnapshotReader&) = delete;
    SnapshotReader& operator=(const SnapshotReader&) = delete;

    // The next section of exactly n bytes, checked against its checksum. `what` names it in
    // errors ("header", "layer 3 blocks", ...).
    Expected<const uint8_t*> section(size_t n, const std::string& what);
    // After the last section: the end marker and nothing else.
    Status finish();
    uint64_t size() const { return map_.size; }

private:
    SnapshotReader() = default;
    Error error(const std::string& what, const std::string& msg) const;

    std::string path_;
    gguf::Mapping map_;
    uint64_t pos_ = 0;
};

} // namespace folio
