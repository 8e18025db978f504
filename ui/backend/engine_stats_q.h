#pragma once
// EngineStats as the GUI receives it through queued signals: Qt strings for the text fields and
// the cache statistics (devices, tiers, block maps) as the engine reports them.

#include "folio/engine.h"

#include <QMetaType>
#include <QString>

#include <vector>

namespace folio::ui {

struct EngineStatsQ {
    bool modelLoaded = false;
    QString state;
    qint64 contextUsed = 0, contextLimit = 0;
    quint64 weightsBytes = 0, kvBytes = 0, scratchBytes = 0;
    double lastPrefillTps = 0, lastDecodeTps = 0, windowDecodeTps = 0, lastTtftMs = 0,
           specAcceptance = 0;
    qint64 prefixHitTokens = 0;
    int sessions = 0;
    // Cumulative engine counters and the engine's clock when they were read (EngineStats).
    qint64 prefillTokensTotal = 0, decodeTokensTotal = 0;
    double prefillBusySeconds = 0, decodeBusySeconds = 0, snapshotSeconds = 0;
    quint64 weightsResidentBytes = 0;
    bool weightsInRam = false; // a private copy in RAM, not the file's mapping
    int threadsInUse = 0, threadsConfigured = 0;
    double otherCpuLoad = 0; // CPUs' worth other programs used
    CacheStats cache;
    std::vector<SessionBlockMap> blockMap;
};

EngineStatsQ toEngineStatsQ(const EngineStats& stats);

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::EngineStatsQ)
