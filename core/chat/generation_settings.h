#pragma once
// Sampling and length settings of one chat, as the UI keeps them (turned into folio::Sampling
// by EngineWorker).

#include <QMetaType>

namespace folio::ui {

struct GenerationSettings {
    double temperature = 0.7;
    int topK = 40;
    double topP = 0.95;
    double minP = 0.05;
    double repetitionPenalty = 1.0;
    int maxTokens = 512;
    quint64 seed = 0;
    bool promptLookup = true; // speculation (the application setting may turn it off)
    bool ignoreEos = false;   // answer to maxTokens (benchmarks and tests; not saved with a chat)
};

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::GenerationSettings)
