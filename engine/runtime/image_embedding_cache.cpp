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

Expected<vision::RgbImage> decode(const ImageInput& image) {
    return image.path.empty() ? vision::image_from_rgb8(image.width, image.height, image.rgb)
                              : vision::load_image_file(image.path);
}

} // namespace

void ImageEmbeddingCache::reset(std::shared_ptr<vision::VisionModel> projector,
                                ImageDiskCache disk) {
    projector_ = std::move(projector);
    store_ = projector_ ? ImageEmbeddingStore(disk.dir, disk.projector_id, disk.budget)
                        : ImageEmbeddingStore();
    fault_.reset();
    rows_.clear();
    order_.clear();
    encodes_ = 0;
}

std::shared_ptr<const std::vector<float>> ImageEmbeddingCache::cached(uint64_t hash, int width,
                                                                      int height) {
    if (auto it = rows_.find(hash); it != rows_.end())
        return it->second;
    if (!store_.enabled())
        return nullptr;
    // The file must hold exactly the rows this projector makes of an image of this size.
    Expected<int64_t> n = projector_->image_rows(width, height);
    if (!n)
        return nullptr;
    auto rows = store_.load(hash, static_cast<size_t>(*n) * projector_->hp.n_embd_text);
    if (rows)
        remember(hash, rows);
    return rows;
}

void ImageEmbeddingCache::remember(uint64_t hash, std::shared_ptr<const std::vector<float>> rows) {
    if (rows_.emplace(hash, std::move(rows)).second)
        order_.push_back(hash);
    while (order_.size() > kCapacity) {
        rows_.erase(order_.front());
        order_.pop_front();
    }
}

Expected<ImageEmbedding> ImageEmbeddingCache::embed(const ImageInput& image, int threads) {
    FOLIO_TRY(all, embed_all({&image}, threads, nullptr));
    return all.front();
}

Expected<std::vector<ImageEmbedding>>
ImageEmbeddingCache::embed_all(const std::vector<const ImageInput*>& images, int threads,
                               const std::function<void(int, int)>& progress) {
    const int total = static_cast<int>(images.size());
    std::vector<ImageEmbedding> out(images.size());
    std::vector<std::pair<size_t, vision::RgbImage>> todo; // decoded, not cached
    for (size_t i = 0; i < images.size(); ++i) {
        FOLIO_TRY(img, decode(*images[i]));
        out[i].hash = content_hash(img);
        out[i].rows = cached(out[i].hash, img.width, img.height);
        if (!out[i].rows)
            todo.emplace_back(i, std::move(img));
    }
    int ready = total - static_cast<int>(todo.size());
    if (progress && total > 0)
        progress(ready, total);
    for (auto& [i, img] : todo) {
        if (auto again = rows_.find(out[i].hash); again != rows_.end()) { // same image twice
            out[i].rows = again->second;
        } else {
            if (fault_)
                return *fault_;
            int n_tokens = 0;
            FOLIO_TRY(rows,
                      vision::encode_image(*projector_, img,
                                           KernelContext{threads, KernelPath::Auto}, &n_tokens));
            ++encodes_;
            // SIGBUS on the projector's mapping became zero pages (core/fault_guard.h): these
            // rows are wrong and so would every later encoding be. The text model is
            // unaffected.
            if (const uint64_t lost = projector_->file->read_faults(); lost > 0) {
                fault_ =
                    file_lost_under_mapping(projector_->file->path(), "vision projector", lost);
                return *fault_;
            }
            auto shared = std::make_shared<const std::vector<float>>(std::move(rows));
            store_.save(out[i].hash, *shared);
            remember(out[i].hash, shared);
            out[i].rows = shared;
        }
        if (progress)
            progress(++ready, total);
    }
    return out;
}

} // namespace folio
