#include "backend/engine_stats_q.h"

namespace folio::ui {

EngineStatsQ toEngineStatsQ(const EngineStats& s) {
    EngineStatsQ out;
    out.modelLoaded = s.model_loaded;
    out.state = QString::fromStdString(s.state);
    out.contextUsed = s.context_used;
    out.contextLimit = s.context_limit;
    out.weightsBytes = s.weights_bytes;
    out.kvBytes = s.kv_bytes;
    out.scratchBytes = s.scratch_bytes;
    out.lastPrefillTps = s.last_prefill_tps;
    out.lastDecodeTps = s.last_decode_tps;
    out.windowDecodeTps = s.window_decode_tps;
    out.lastTtftMs = s.last_ttft_ms;
    out.specAcceptance = s.spec_acceptance;
    out.prefixHitTokens = s.prefix_hit_tokens;
    out.sessions = s.sessions;
    out.prefillTokensTotal = s.prefill_tokens_total;
    out.decodeTokensTotal = s.decode_tokens_total;
    out.prefillBusySeconds = s.prefill_busy_seconds;
    out.decodeBusySeconds = s.decode_busy_seconds;
    out.snapshotSeconds = s.snapshot_seconds;
    out.weightsResidentBytes = s.weights_resident_bytes;
    out.weightsInRam = s.weights_in_ram;
    out.threadsInUse = s.threads_in_use;
    out.threadsConfigured = s.threads_configured;
    out.otherCpuLoad = s.other_cpu_load;
    out.cache = s.cache;
    out.blockMap = s.block_map;
    return out;
}

} // namespace folio::ui
