#include "runtime/image_embedding_cache.h"

#include "model/vision/image_io.h"
#include "model/vision/vision_encoder.h"
#include "model/vision/vision_model.h"
#include "runtime/mapped_file_fault.h"

namespace folio {

namespace {

// FNV-1a over the pixels, seeded with the size.
uint64_t content_hash(const vision::RgbImage& img) {
    uint64_t h = 0xcbf29ce484222325ull ^ (static_cast<uint64_t>(img.width) << 32) ^
                 static_cast<uint64_t>(img.height);
    for (uint8_t b : img.rgb) {
        h ^= b;
        h *= 0x100000001b3ull;
    }
    return h;
}

} // namespace

void ImageEmbeddingCache::reset(std::shared_ptr<vision::VisionModel> projector) {
    projector_ = std::move(projector);
    fault_.reset();
    rows_.clear();
    order_.clear();
}

Expected<ImageEmbedding> ImageEmbeddingCache::embed(const ImageInput& image, int threads) {
    Expected<vision::RgbImage> img =
        image.path.empty() ? vision::image_from_rgb8(image.width, image.height, image.rgb)
                           : vision::load_image_file(image.path);
    if (!img)
        return img.error();
    const uint64_t hash = content_hash(*img);
    if (auto it = rows_.find(hash); it != rows_.end())
        return ImageEmbedding{hash, it->second};
    if (fault_)
        return *fault_;
    int n_tokens = 0;
    FOLIO_TRY(rows, vision::encode_image(*projector_, *img,
                                         KernelContext{threads, KernelPath::Auto}, &n_tokens));
    // SIGBUS on the projector's mapping became zero pages (core/fault_guard.h): these rows are
    // wrong and so would every later encoding be. The text model is unaffected.
    if (const uint64_t lost = projector_->file->read_faults(); lost > 0) {
        fault_ = file_lost_under_mapping(projector_->file->path(), "vision projector", lost);
        return *fault_;
    }
    auto shared = std::make_shared<const std::vector<float>>(std::move(rows));
    rows_[hash] = shared;
    order_.push_back(hash);
    while (order_.size() > kCapacity) {
        rows_.erase(order_.front());
        order_.pop_front();
    }
    return ImageEmbedding{hash, shared};
}

} // namespace folio
