#include "cache/snapshot_file.h"

#include <cstring>

namespace folio {

namespace {

constexpr char kEndMarker[8] = {'F', 'O', 'L', 'I', 'O', 'E', 'N', 'D'};

uint64_t load64(const uint8_t* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

} // namespace

uint64_t checksum64(const uint8_t* p, size_t n) {
    uint64_t a = 0x243f6a8885a308d3ull, b = 0x13198a2e03707344ull, c = 0xa4093822299f31d0ull,
             d = 0x082efa98ec4e6c89ull;
    constexpr uint64_t k = 0x9e3779b97f4a7c15ull;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        a = (a ^ load64(p + i)) * k;
        b = (b ^ load64(p + i + 8)) * k;
        c = (c ^ load64(p + i + 16)) * k;
        d = (d ^ load64(p + i + 24)) * k;
        a ^= a >> 29;
        b ^= b >> 29;
        c ^= c >> 29;
        d ^= d >> 29;
    }
    uint64_t tail = 0; // the last n % 32 bytes
    for (; i < n; ++i)
        tail = tail * 0x100000001b3ull + p[i] + 1;
    return mix(a + mix(b + mix(c + mix(d + tail + n))));
}

Expected<std::unique_ptr<SnapshotWriter>> SnapshotWriter::create(const std::string& path) {
    FOLIO_TRY(file, gguf::AtomicFile::create(path));
    auto w = std::unique_ptr<SnapshotWriter>(new SnapshotWriter());
    w->file_ = std::move(file);
    FOLIO_CHECK(w->file_->write(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(kSnapshotMagic), 8)));
    return w;
}

Status SnapshotWriter::section(std::span<const uint8_t> bytes) {
    FOLIO_CHECK(file_->write(bytes));
    const uint64_t sum = checksum64(bytes.data(), bytes.size());
    return file_->write(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&sum), 8));
}

Status SnapshotWriter::commit() {
    FOLIO_CHECK(
        file_->write(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(kEndMarker), 8)));
    return file_->commit();
}

Expected<std::unique_ptr<SnapshotReader>> SnapshotReader::open(const std::string& path) {
    FOLIO_TRY(map, gguf::map_file_readonly(path));
    auto r = std::unique_ptr<SnapshotReader>(new SnapshotReader());
    r->path_ = path;
    r->map_ = map;
    if (map.size < 8 || std::memcmp(map.data, kSnapshotMagic, 8) != 0)
        return r->error("header", "not a Folio KV snapshot (bad magic)");
    r->pos_ = 8;
    return r;
}

SnapshotReader::~SnapshotReader() {
    gguf::unmap_file(map_);
}

Error SnapshotReader::error(const std::string& what, const std::string& msg) const {
    return Error{ErrorCode::Format,
                 path_ + ": " + what + " at byte " + std::to_string(pos_) + ": " + msg};
}

Expected<const uint8_t*> SnapshotReader::section(size_t n, const std::string& what) {
    if (pos_ + n + 8 > map_.size)
        return error(what, "truncated (the file has " + std::to_string(map_.size) + " bytes)");
    const uint8_t* p = map_.data + pos_;
    if (checksum64(p, n) != load64(p + n))
        return error(what, "checksum mismatch (the snapshot is corrupt)");
    pos_ += n + 8;
    return p;
}

Status SnapshotReader::finish() {
    if (pos_ + 8 > map_.size || std::memcmp(map_.data + pos_, kEndMarker, 8) != 0)
        return error("end marker", "missing (the snapshot is truncated)");
    if (pos_ + 8 != map_.size)
        return error("end marker", "unexpected bytes after the end");
    return {};
}

} // namespace folio
