#pragma once
// What the application settings choose for a model load (Settings dialog, --model, --mmproj),
// and its translation into the engine's ModelSpec (including the KV cache options).

#include "folio/engine.h"

#include <QMetaType>
#include <QString>

namespace folio::ui {

struct LoadOptions {
    QString model;  // GGUF text model
    QString mmproj; // optional vision projector
    int threads = 0;
    qint64 context = 0;      // 0: the engine's default
    QString kvType;          // "f32" | "f16" | "bf16" | "q8_0"; empty: the engine's default
    qint64 ramBudget = -1;   // bytes of KV in RAM; < 0: unlimited
    QString offloadDir;      // disk tier; empty: none
    bool speculation = true; // prompt-lookup speculation on answers
    // Projector outputs kept across runs (ModelSpec::image_cache_dir); empty: in memory only.
    QString imageCacheDir;
    WeightsMemory weights = WeightsMemory::Mapped; // or copied into RAM
};

// <cache location>/image-embeddings.
QString defaultImageCacheDir();

ModelSpec toModelSpec(const LoadOptions& options);

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::LoadOptions)
