#pragma once
// Defaults for long documents (issue #22 §5): the context a model gets when the user has not
// chosen one is what it was trained for, limited by what the KV cache can hold in RAM plus the
// disk tier; the disk tier is on, in the cache folder; the RAM budget comes from available
// memory; the KV storage type is the cheapest one docs/KV_CACHE.md measured to be safe for the
// architecture (f16: within 2e-3 of f32 on the dense MLA models; the DSA model deepseek32 keeps
// f32, whose index selection f16 already changes).

#include "backend/load_options.h"
#include "folio/model_info.h"

#include <QString>

namespace folio::ui {

struct LongContextPlan {
    qint64 context = 0;         // tokens
    qint64 kvBytesPerToken = 0; // all layers, in kvType
    qint64 ramBudget = 0;       // bytes of KV in RAM
    qint64 diskBudget = 0;      // bytes of KV on disk (0: no disk tier)
    QString kvType;
};

// "f16", or "f32" for architectures whose accuracy needs it (see above).
QString cheapestSafeKvType(const QString& architecture);
// KV bytes per token of an MLA model ((kv_lora_rank + rope dimensions) per layer, GGUF
// metadata) in `kvType`; 0 when the metadata does not say.
qint64 kvBytesPerToken(const ModelInfo& info, const QString& kvType);
// The plan for a model trained for `modelContext` tokens with `bytesPerToken` of KV, on a
// machine with `availableRam` bytes free (after the weights, `weightBytes`) and `diskFree`
// bytes free in the disk tier's folder: half of the rest of RAM, and up to half of the free
// disk (at most 64 GiB); the context is what they hold together, in whole 1,024-token steps,
// never above the trained context and at least 4,096 tokens (or the trained context).
LongContextPlan planLongContext(qint64 modelContext, qint64 bytesPerToken, qint64 availableRam,
                                qint64 weightBytes, qint64 diskFree);
// "context 131,072 (RAM 6.2 GiB + disk 12 GiB)".
QString describePlan(const LongContextPlan& plan);

// Fills what `options` leaves to the defaults (context 0, kvType "auto" or empty, no RAM
// budget, no disk tier while `autoDiskTier`) from `info` and this machine; `offloadDir` is the
// disk tier's folder to use. Returns the plan used.
LongContextPlan applyLongContextDefaults(LoadOptions& options, const ModelInfo& info,
                                         const QString& offloadDir, bool autoDiskTier);

} // namespace folio::ui
