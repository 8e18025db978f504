#pragma once
// The model the engine serves: the text model, its optional draft model, what is told about
// them (ModelFacts), and whether their files can still be read. Loading the files runs without
// the engine's lock (load_model_files); the slot then holds the result until the next load or
// unload. Guarded by the engine's lock; the worker alone changes it.

#include "folio/engine.h"
#include "folio/error.h"
#include "runtime/cpu_share.h"
#include "runtime/decoder_adapter.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace folio {

namespace vision {
struct VisionModel;
}

// What a load made, before the slot holds it.
struct LoadedModel {
    std::shared_ptr<DecoderHandle> model;
    std::shared_ptr<DecoderHandle> draft;           // null when none
    std::shared_ptr<vision::VisionModel> projector; // null when none (for ImageEmbeddingCache)
    ModelFacts facts;
    int prefill_chunk = 512;
};

// Loads the spec's text model, its draft model (same vocabulary) and vision projector (rows as
// wide as the text model's), then reads the weights through once, reporting `progress`; a
// `superseded()` load stops there (ErrorCode::Cancelled). The first failure is the error.
Expected<LoadedModel> load_model_files(const ModelSpec& spec,
                                       const std::function<void(double)>& progress,
                                       const std::function<bool()>& superseded);

class ModelSlot {
public:
    bool loaded() const { return model_ != nullptr; }
    // The accessors below require loaded().
    const DecoderHandle& model() const { return *model_; }
    // Shares the model with a caller outside the engine's lock (token counting).
    std::shared_ptr<const DecoderHandle> shared_model() const { return model_; }
    const DecoderHandle* draft() const { return draft_.get(); } // null when none
    const ModelFacts& facts() const { return facts_; }
    // The kernel threads for the next step: facts().threads less the cores other work keeps
    // busy (runtime/cpu_share.h). Worker thread only.
    int threads() { return cpu_.threads(); }
    const CpuShare& cpu_share() const { return cpu_; }
    int64_t context_limit() const { return facts_.context_limit; }
    int prefill_chunk() const { return prefill_chunk_; }

    // Holds the text and draft models of `loaded` (its projector is not kept here).
    void install(LoadedModel loaded);
    // Unloads: no model, no fault.
    void clear();

    // SIGBUS on the model's or the KV offload file's mapping became zero pages
    // (core/fault_guard.h). Once the model file (or the draft's) could not be read, every
    // request is refused with this error until a load.
    const std::optional<Error>& file_fault() const { return file_fault_; }
    // Faults not reported before (recording them), else one found by check_in_step(), else
    // nothing. The scheduler calls it after every step.
    std::optional<Error> take_fault();
    // Faults not reported before, found inside a step (so nothing is computed on from zero
    // pages): returned now and once more by the next take_fault().
    std::optional<Error> check_in_step();

private:
    std::optional<Error> new_fault();

    std::shared_ptr<DecoderHandle> model_;
    std::shared_ptr<DecoderHandle> draft_;
    ModelFacts facts_;
    int prefill_chunk_ = 512;
    CpuShare cpu_;
    std::optional<Error> file_fault_;
    uint64_t cache_faults_seen_ = 0;
    std::optional<Error> found_in_step_;
};

} // namespace folio
