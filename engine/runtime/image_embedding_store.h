#pragma once
// Projector outputs on disk (ModelSpec::image_cache_dir): one file per (projector file
// fingerprint, image content hash), written atomically, the oldest removed over the byte
// budget. A file that is truncated, corrupt or of another projector is ignored, removed and
// logged (stderr); nothing here fails a request. Worker thread only.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace folio {

class ImageEmbeddingStore {
public:
    ImageEmbeddingStore() = default; // disabled
    ImageEmbeddingStore(std::string dir, std::string projector_id, int64_t budget_bytes);
    bool enabled() const { return !dir_.empty() && !projector_.empty(); }

    // The rows of image `hash` when a valid file holds exactly `floats` of them; null otherwise.
    std::shared_ptr<const std::vector<float>> load(uint64_t hash, size_t floats) const;
    // Best effort: a full disk or a read-only folder only costs the encoding next time.
    void save(uint64_t hash, const std::vector<float>& rows) const;
    std::string path_of(uint64_t hash) const;

private:
    void evict() const;

    std::string dir_;
    std::string projector_; // hex fingerprint of the projector file
    int64_t budget_ = 0;
};

} // namespace folio
