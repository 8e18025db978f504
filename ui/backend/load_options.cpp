#include "backend/load_options.h"

#include <QStandardPaths>

namespace folio::ui {

ModelSpec toModelSpec(const LoadOptions& o) {
    ModelSpec spec;
    spec.gguf = o.model.toStdString();
    spec.mmproj = o.mmproj.toStdString();
    spec.threads = o.threads;
    spec.context = o.context;
    KvType kv = KvType::F32;
    if (!o.kvType.isEmpty() && parse_kv_type(o.kvType.toStdString(), kv))
        spec.cache.kv_type = kv;
    spec.cache.ram_budget = o.ramBudget >= 0 ? o.ramBudget : -1;
    spec.cache.offload_dir = o.offloadDir.toStdString();
    spec.image_cache_dir = o.imageCacheDir.toStdString();
    spec.weights = o.weights;
    return spec;
}

QString defaultImageCacheDir() {
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
           QStringLiteral("/image-embeddings");
}

} // namespace folio::ui
