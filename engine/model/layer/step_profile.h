#pragma once
// Where the time of decoder_eval goes, by phase (bench: decode ms/token per phase at each
// context depth). Off unless EvalOptions::profile points at one: a null check per phase.

#include <chrono>
#include <cstdint>

namespace folio {

enum class StepPhase : int {
    KdaMixer,    // KDA layers: projections, conv, delta rule, gated norm, output
    MlaProject,  // MLA layers: q / kv projections, norms, RoPE, cache store, output projection
    Indexer,     // DSA: index keys and queries, scoring, top-k selection
    Attention,   // MLA attention over the cache (dense or the selected rows)
    Ffn,         // dense and MoE FFN, norms and residuals
    Output,      // final norm and the output projection
    Bookkeeping, // block pool step, commit, budget
    Count
};

inline constexpr const char* step_phase_name(StepPhase p) {
    constexpr const char* names[] = {"kda", "mla proj", "indexer",    "attention",
                                     "ffn", "output",   "bookkeeping"};
    return names[static_cast<int>(p)];
}

struct StepProfile {
    double seconds[static_cast<int>(StepPhase::Count)] = {};
    int64_t steps = 0;

    double total() const {
        double t = 0;
        for (double s : seconds)
            t += s;
        return t;
    }
};

// Adds the time from construction to destruction (or to stop()) to one phase; no-op on null.
class PhaseTimer {
public:
    PhaseTimer(StepProfile* p, StepPhase phase) : p_(p), phase_(phase) {
        if (p_)
            t0_ = std::chrono::steady_clock::now();
    }
    ~PhaseTimer() { stop(); }
    PhaseTimer(const PhaseTimer&) = delete;
    PhaseTimer& operator=(const PhaseTimer&) = delete;

    void stop() {
        if (!p_)
            return;
        p_->seconds[static_cast<int>(phase_)] +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
        p_ = nullptr;
    }

private:
    StepProfile* p_;
    StepPhase phase_;
    std::chrono::steady_clock::time_point t0_;
};

} // namespace folio
