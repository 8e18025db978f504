#pragma once
// The vision projector (ModelSpec::mmproj) and the embeddings it made, by image content: a
// document's page images are encoded once however often a conversation sends them. Worker
// thread only.

#include "folio/engine.h"
#include "folio/error.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
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

class ImageEmbeddingCache {
public:
    // A new model (or none): forgets every embedding and a projector fault.
    void reset(std::shared_ptr<vision::VisionModel> projector = nullptr);
    bool has_projector() const { return projector_ != nullptr; }
    std::shared_ptr<const vision::VisionModel> projector() const { return projector_; }

    // The rows for `image` (a file or RGB8 pixels), from the cache when the same pixels were
    // seen. Requires a projector.
    Expected<ImageEmbedding> embed(const ImageInput& image, int threads);

private:
    static constexpr size_t kCapacity = 64; // about a report's worth of page images

    std::shared_ptr<vision::VisionModel> projector_;
    std::optional<Error> fault_; // the projector's file failed under its mapping
    std::map<uint64_t, std::shared_ptr<const std::vector<float>>> rows_;
    std::deque<uint64_t> order_; // oldest first
};

} // namespace folio
