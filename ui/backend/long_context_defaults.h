#pragma once
// Defaults for long documents (issue #22 §5) in the workbench: what the settings leave to Folio
// (context 0, KV type "auto", no RAM budget, the disk tier) is filled from the engine's plan for
// the model on this machine (folio/context_plan.h: the trained context, limited by what the RAM
// budget plus the disk tier hold; the cheapest KV type docs/KV_CACHE.md shows to be safe), and
// described for the status bar and the Settings dialog.

#include "backend/load_options.h"

#include <QString>

namespace folio::ui {

struct LongContextPlan {
    qint64 context = 0;           // tokens
    qint64 kvBytesPerToken = 0;   // all layers, in kvType (0: not known)
    qint64 ramBudget = 0;         // bytes of KV in RAM (< 0: unlimited)
    qint64 diskBudget = 0;        // bytes of a full context's KV on disk (0: no disk tier)
    bool limitedByMemory = false; // the context is below the trained one because of memory
    QString kvType;
};

// "context 131,072 (RAM 6.2 GiB + disk 12 GiB)".
QString describePlan(const LongContextPlan& plan);

// Fills what `options` leaves to the defaults (context <= 0, kvType "auto" or empty, ramBudget
// < 0, no disk tier while `autoDiskTier`) from the engine's plan for options.model;
// `offloadDir` is the disk tier's folder to use. Returns what the load gets. A model whose
// metadata cannot be read keeps the engine's own defaults (KV f16, the plan says nothing).
LongContextPlan applyLongContextDefaults(LoadOptions& options, const QString& offloadDir,
                                         bool autoDiskTier);

} // namespace folio::ui
