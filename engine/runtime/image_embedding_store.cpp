#include "runtime/image_embedding_store.h"

#include "gguf/atomic_file.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace folio {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'F', 'O', 'L', 'I', 'O', 'E', 'M', 'B'};
constexpr uint32_t kVersion = 1;
constexpr const char* kSuffix = ".emb";

// Layout: magic, version, image hash, float count, floats, FNV-1a of the floats' bytes.
struct Header {
    char magic[8];
    uint32_t version;
    uint32_t reserved;
    uint64_t hash;
    uint64_t floats;
};

uint64_t fnv1a(const void* data, size_t n) {
    const auto* p = static_cast<const uint8_t*>(data);
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

std::string hex(uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

void drop(const std::string& path, const char* why) {
    std::error_code ec;
    fs::remove(path, ec);
    std::fprintf(stderr, "folio: image embedding cache: removed %s (%s)\n", path.c_str(), why);
}

} // namespace

ImageEmbeddingStore::ImageEmbeddingStore(std::string dir, std::string projector_id,
                                         int64_t budget_bytes)
    : dir_(std::move(dir)), projector_(std::move(projector_id)), budget_(budget_bytes) {}

std::string ImageEmbeddingStore::path_of(uint64_t hash) const {
    return (fs::path(dir_) / (projector_ + "-" + hex(hash) + kSuffix)).string();
}

std::shared_ptr<const std::vector<float>> ImageEmbeddingStore::load(uint64_t hash,
                                                                    size_t floats) const {
    if (!enabled())
        return nullptr;
    const std::string path = path_of(hash);
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec)
        return nullptr; // not cached
    const uint64_t expected = sizeof(Header) + floats * sizeof(float) + sizeof(uint64_t);
    if (size != expected) {
        drop(path, "wrong size: truncated or another image layout");
        return nullptr;
    }
    std::ifstream in(path, std::ios::binary);
    Header h{};
    auto rows = std::make_shared<std::vector<float>>(floats);
    uint64_t check = 0;
    in.read(reinterpret_cast<char*>(&h), sizeof h);
    in.read(reinterpret_cast<char*>(rows->data()), static_cast<std::streamsize>(floats * 4));
    in.read(reinterpret_cast<char*>(&check), sizeof check);
    if (!in) {
        drop(path, "unreadable");
        return nullptr;
    }
    if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.version != kVersion ||
        h.hash != hash || h.floats != floats ||
        check != fnv1a(rows->data(), floats * sizeof(float))) {
        drop(path, "corrupt: header or checksum does not match");
        return nullptr;
    }
    fs::last_write_time(path, fs::file_time_type::clock::now(), ec); // recently used
    return rows;
}

void ImageEmbeddingStore::save(uint64_t hash, const std::vector<float>& rows) const {
    if (!enabled())
        return;
    std::error_code ec;
    fs::create_directories(dir_, ec);
    const std::string path = path_of(hash);
    auto file = gguf::AtomicFile::create(path);
    if (!file) {
        std::fprintf(stderr, "folio: image embedding cache: %s\n",
                     file.error().to_string().c_str());
        return;
    }
    Header h{};
    std::memcpy(h.magic, kMagic, sizeof kMagic);
    h.version = kVersion;
    h.hash = hash;
    h.floats = rows.size();
    const uint64_t check = fnv1a(rows.data(), rows.size() * sizeof(float));
    const auto bytes = [](const void* p, size_t n) {
        return std::span<const uint8_t>(static_cast<const uint8_t*>(p), n);
    };
    Status s = (*file)->write(bytes(&h, sizeof h));
    if (s)
        s = (*file)->write(bytes(rows.data(), rows.size() * sizeof(float)));
    if (s)
        s = (*file)->write(bytes(&check, sizeof check));
    if (s)
        s = (*file)->commit();
    if (!s) {
        std::fprintf(stderr, "folio: image embedding cache: %s\n", s.error().to_string().c_str());
        return;
    }
    evict();
}

// Removes the least recently used files (every projector's) until the folder fits the budget.
void ImageEmbeddingStore::evict() const {
    struct Entry {
        fs::path path;
        fs::file_time_type time;
        uint64_t bytes;
    };
    std::vector<Entry> entries;
    uint64_t total = 0;
    std::error_code ec;
    const auto stale = fs::file_time_type::clock::now() - std::chrono::minutes(10);
    for (const auto& e : fs::directory_iterator(dir_, ec)) {
        std::error_code ec2;
        // A write that a crash interrupted leaves its temporary file (gguf/atomic_file.h).
        if (e.path().filename().string().find(std::string(kSuffix) + ".tmp-") !=
                std::string::npos &&
            e.last_write_time(ec2) < stale && !ec2) {
            fs::remove(e.path(), ec2);
            continue;
        }
        if (e.path().extension() != kSuffix)
            continue;
        const uint64_t bytes = e.file_size(ec2);
        const auto time = e.last_write_time(ec2);
        if (ec2)
            continue;
        entries.push_back({e.path(), time, bytes});
        total += bytes;
    }
    if (static_cast<int64_t>(total) <= budget_)
        return;
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.time < b.time; });
    for (const Entry& e : entries) {
        if (static_cast<int64_t>(total) <= budget_)
            break;
        if (fs::remove(e.path, ec))
            total -= e.bytes;
    }
}

} // namespace folio
