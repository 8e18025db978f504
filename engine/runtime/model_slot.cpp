#include "runtime/model_slot.h"

#include "folio/model_info.h"
#include "gguf/file_fingerprint.h"
#include "model/vision/vision_model.h"
#include "runtime/mapped_file_fault.h"

#include <algorithm>
#include <thread>

namespace folio {

namespace {

bool same_vocabulary(const tokenizer::Tokenizer& a, const tokenizer::Tokenizer& b) {
    if (a.vocab_size() != b.vocab_size())
        return false;
    for (size_t i = 0; i < a.vocab_size(); ++i)
        if (a.token_text(static_cast<int32_t>(i)) != b.token_text(static_cast<int32_t>(i)))
            return false;
    return true;
}

// The draft model for SpeculationMode::DraftModel: it must share the text model's vocabulary.
Expected<std::shared_ptr<DecoderHandle>> load_draft_model(const ModelSpec& spec,
                                                          const DecoderHandle& model) {
    FOLIO_TRY(draft, load_decoder_handle(spec.draft_gguf));
    if (!same_vocabulary(decoder_tokenizer(model), decoder_tokenizer(*draft)))
        return make_error(ErrorCode::InvalidArgument, spec.draft_gguf +
                                                          ": the draft model's vocabulary "
                                                          "differs from " +
                                                          spec.gguf + "'s");
    return draft;
}

// The vision projector: its rows go into the text model's input, so their widths must agree.
Expected<std::shared_ptr<vision::VisionModel>> load_projector(const ModelSpec& spec,
                                                              const DecoderHandle& model) {
    FOLIO_TRY(projector, vision::load_vision_model(spec.mmproj));
    const int64_t width = decoder_embedding_size(model);
    if (static_cast<int64_t>(projector.hp.n_embd_text) != width)
        return make_error(ErrorCode::InvalidArgument, spec.mmproj + ": projects to " +
                                                          std::to_string(projector.hp.n_embd_text) +
                                                          " values, the text model's rows have " +
                                                          std::to_string(width));
    return std::make_shared<vision::VisionModel>(std::move(projector));
}

ModelFacts facts_of(const ModelSpec& spec, const LoadedModel& loaded) {
    const DecoderFacts& df = decoder_facts(*loaded.model);
    ModelFacts f;
    f.path = spec.gguf;
    f.name = df.name;
    f.architecture = df.architecture;
    f.vocab_size = df.vocab_size;
    f.model_context = df.context_length;
    f.context_limit = spec.context > 0 ? std::min(spec.context, df.context_length)
                                       : std::min<int64_t>(df.context_length, 32768);
    f.file_bytes = decoder_weight_bytes(*loaded.model);
    if (auto info = inspect_model(spec.gguf)) {
        f.parameters = info->parameter_count;
        f.active_parameters = info->active_parameter_count;
    }
    auto tmpl = decoder_chat_template(*loaded.model);
    f.chat_template = tmpl ? std::string(tokenizer::template_name(*tmpl)) : "";
    f.threads = spec.threads > 0
                    ? spec.threads
                    : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    f.draft_name = loaded.draft ? decoder_facts(*loaded.draft).name : "";
    f.weights_in_ram = decoder_weights_in_ram(*loaded.model);
    f.placement = df.placement;
    if (auto fp = gguf::file_fingerprint(spec.gguf))
        f.fingerprint = *fp;
    if (loaded.projector)
        if (auto fp = gguf::file_fingerprint(spec.mmproj))
            f.projector_fingerprint = *fp;
    return f;
}

} // namespace

Expected<LoadedModel> load_model_files(const ModelSpec& spec,
                                       const std::function<void(double)>& progress,
                                       const std::function<bool()>& superseded) {
    LoadedModel loaded;
    FOLIO_TRY(model, load_decoder_handle(spec.gguf, spec.cache));
    loaded.model = std::move(model);
    if (!spec.draft_gguf.empty()) {
        FOLIO_TRY(draft, load_draft_model(spec, *loaded.model));
        loaded.draft = std::move(draft);
    }
    // A projector that cannot serve this model (unreadable, or made for another width) is set
    // aside with a note: the text model still loads and answers, without images.
    std::string projector_note;
    if (!spec.mmproj.empty()) {
        auto projector = load_projector(spec, *loaded.model);
        if (projector)
            loaded.projector = std::move(*projector);
        else
            projector_note = projector.error().message;
    }
    if (!settle_decoder_weights(*loaded.model, spec.weights, progress, superseded))
        return make_error(ErrorCode::Cancelled, spec.gguf + ": loading was cancelled");
    loaded.facts = facts_of(spec, loaded);
    loaded.facts.projector_note = projector_note;
    loaded.prefill_chunk = std::max(1, spec.prefill_chunk);
    return loaded;
}

void ModelSlot::install(LoadedModel loaded) {
    model_ = std::move(loaded.model);
    draft_ = std::move(loaded.draft);
    facts_ = std::move(loaded.facts);
    prefill_chunk_ = loaded.prefill_chunk;
    cpu_ = CpuShare(facts_.threads);
}

void ModelSlot::clear() {
    model_.reset();
    draft_.reset();
    file_fault_.reset();
    cache_faults_seen_ = 0;
    found_in_step_.reset();
}

std::optional<Error> ModelSlot::take_fault() {
    std::optional<Error> e = new_fault();
    if (!e)
        e = std::exchange(found_in_step_, std::nullopt);
    return e;
}

std::optional<Error> ModelSlot::check_in_step() {
    std::optional<Error> e = new_fault();
    if (e)
        found_in_step_ = e;
    return e;
}

std::optional<Error> ModelSlot::new_fault() {
    if (!model_)
        return std::nullopt;
    ReadFaults f = decoder_read_faults(*model_);
    std::string what = facts_.path;
    if (draft_ && f.weights == 0) {
        f.weights = decoder_read_faults(*draft_).weights;
        what = facts_.draft_name + " (draft model)";
    }
    if (f.weights > 0 && !file_fault_) {
        file_fault_ = file_lost_under_mapping(what, "model", f.weights);
        return file_fault_;
    }
    if (f.cache > cache_faults_seen_) {
        const uint64_t lost = f.cache - cache_faults_seen_;
        cache_faults_seen_ = f.cache;
        return make_error(ErrorCode::Io,
                          "the KV cache's offload file could not be read back (" +
                              std::to_string(lost) +
                              " pages lost to an I/O error or truncation); the cached "
                              "conversation was dropped and will be computed again");
    }
    return std::nullopt;
}

} // namespace folio
