#pragma once
// The vision projector (ModelSpec::mmproj) and the embeddings it made, by image content: a
// document's page images are encoded once however often a conversation sends them, and with a
// cache folder (image_embedding_store.h) once across runs. Worker thread only.

#include "folio/engine.h"
#include "folio/error.h"
#include "runtime/image_embedding_store.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace folio {

namespace vision {
struct VisionModel;
}

// One image's projector output: rows of the text model's embedding width.
struct ImageEmbedding {
    uint64_t hash = 0; // of the decoded pixels (and the size)
    std::shared_ptr<const std::vector<float>> rows;
};

struct ImageDiskCache {
    std::string dir;          // "" : in memory only
    std::string projector_id; // the projector file's fingerprint ("" : no disk cache)
    int64_t budget = 0;       // bytes
};

class ImageEmbeddingCache {
public:
    // A new model (or none): forgets every embedding in memory and a projector fault.
    void reset(std::shared_ptr<vision::VisionModel> projector = nullptr, ImageDiskCache disk = {});
    bool has_projector() const { return projector_ != nullptr; }
    std::shared_ptr<const vision::VisionModel> projector() const { return projector_; }

    // The rows for `image` (a file or RGB8 pixels), from the cache when the same pixels were
    // seen (in memory, then on disk). Requires a projector.
    Expected<ImageEmbedding> embed(const ImageInput& image, int threads);
    // All of `images` in order; `progress(ready, total)` first counts the cached ones, then
    // follows each encoding (not called when null or without images).
    Expected<std::vector<ImageEmbedding>> embed_all(const std::vector<const ImageInput*>& images,
                                                    int threads,
                                                    const std::function<void(int, int)>& progress);

    // Projector runs since reset() (tests: what the caches spared).
    int64_t encodes() const { return encodes_; }

private:
    static constexpr size_t kCapacity = 64; // about a report's worth of page images

    std::shared_ptr<const std::vector<float>> cached(uint64_t hash, int width, int height);
    void remember(uint64_t hash, std::shared_ptr<const std::vector<float>> rows);

    std::shared_ptr<vision::VisionModel> projector_;
    ImageEmbeddingStore store_;
    std::optional<Error> fault_; // the projector's file failed under its mapping
    std::map<uint64_t, std::shared_ptr<const std::vector<float>>> rows_;
    std::deque<uint64_t> order_; // oldest first
    int64_t encodes_ = 0;
};

} // namespace folio
