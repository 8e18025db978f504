#include "runtime/request_job.h"

#include "runtime/engine_statistics.h"
#include "runtime/image_embedding_cache.h"
#include "runtime/model_slot.h"
#include "runtime/output_stream.h"
#include "runtime/sampler.h"
#include "runtime/session_cache.h"
#include "runtime/speculation.h"

#include <algorithm>
#include <span>

namespace folio {

namespace {

const char* kStopNames[] = {"eos", "stop", "length", "cancelled", "error"};

double seconds_since(RequestJob::Clock::time_point t0) {
    return std::chrono::duration<double>(RequestJob::Clock::now() - t0).count();
}

} // namespace

int64_t PrefillPacing::chunk(int64_t max_chunk, bool interleave) const {
    if (!interleave || prefill_tps_ <= 0)
        return max_chunk;
    return std::clamp<int64_t>(static_cast<int64_t>(prefill_tps_ * decode_step_s_), 1, max_chunk);
}

void PrefillPacing::record_prefill(int64_t tokens, double seconds) {
    if (seconds > 0)
        prefill_tps_ =
            prefill_tps_ > 0 ? 0.7 * prefill_tps_ + 0.3 * (tokens / seconds) : tokens / seconds;
}

RequestJob::RequestJob(RequestId id, SessionId session, Request request,
                       EngineStatistics& statistics)
    : id_(id), session_(session), req_(std::move(request)), statistics_(statistics),
      submitted_(Clock::now()) {}

RequestJob::~RequestJob() = default;

std::optional<StepFailure> RequestJob::step(StepContext& ctx, SessionCache& cache,
                                            Drafter& drafter) {
    if (cancel_) {
        finish(StopReason::Cancelled);
        return std::nullopt;
    }
    if (!ctx.model.loaded())
        return StepFailure{make_error(ErrorCode::InvalidArgument, "no model is loaded")};
    if (ctx.model.file_fault())
        return StepFailure{*ctx.model.file_fault()};
    if (phase_ == Phase::Queued) {
        Status started = start(ctx, cache);
        if (!started)
            return StepFailure{started.error()};
        return std::nullopt;
    }
    Status s = phase_ == Phase::Prefill ? prefill(ctx, cache) : decode(ctx, cache, drafter);
    if (!s)
        return StepFailure{s.error(), true};
    return std::nullopt;
}

Status RequestJob::start(StepContext& ctx, SessionCache& cache) {
    const DecoderHandle& model = ctx.model.model();
    FOLIO_TRY(prompt, assemble_prompt(req_, model, ctx.images, ctx.model.threads(),
                                      ctx.model.context_limit()));
    prompt_ = std::move(prompt);
    // Prefix reuse: keep the KV of the longest common prefix with what the session holds.
    const int64_t common = cache.reuse_prefix(model, prompt_, ctx.model.context_limit());
    prefill_pos_ = common;
    stats_.prompt_tokens = static_cast<int64_t>(prompt_.ids.size());
    stats_.reused_tokens = common;
    const Sampling& sp = req_.sampling;
    sampler_ = std::make_unique<Sampler>(
        SamplingParams{sp.temperature, sp.top_k, sp.top_p, sp.min_p, sp.repetition_penalty,
                       sp.presence_penalty, SamplingParams{}.penalty_last_n, sp.seed});
    // In Kimi-K2's real vocabulary the tool-call markers (<|tool_calls_section_begin|>, ...) are
    // CONTROL tokens: a request that declares tools must see them in its text, or the calls
    // could never be parsed (agent/tool_calls.h).
    out_ = std::make_unique<OutputStream>(decoder_tokenizer(model), req_.stop,
                                          !req_.tools_json.empty());
    history_ = prompt_.ids;
    phase_ = Phase::Prefill;
    prefill_start_ = Clock::now();
    return {};
}

Status RequestJob::prefill(StepContext& ctx, SessionCache& cache) {
    const DecoderHandle& model = ctx.model.model();
    const int64_t total = static_cast<int64_t>(prompt_.ids.size());
    int64_t n =
        std::min(ctx.pacing.chunk(ctx.model.prefill_chunk(), ctx.interleave), total - prefill_pos_);
    // Recurrent models keep prefix-cache states where steps end on these boundaries.
    n = std::min(n, prefix_step_end(model, prefill_pos_, total) - prefill_pos_);
    const auto t0 = Clock::now();
    FOLIO_CHECK(cache.prefill(model, prompt_, prefill_pos_, n, ctx.model.threads(), logits_));
    const double chunk_seconds = seconds_since(t0);
    ctx.pacing.record_prefill(n, chunk_seconds);
    statistics_.record_prefill(n, chunk_seconds);
    prefill_pos_ += n;
    prefill_tokens_done_ += n;
    const int64_t todo = total - stats_.reused_tokens;
    const double elapsed = seconds_since(prefill_start_);
    const double eta =
        prefill_tokens_done_ > 0 ? elapsed / prefill_tokens_done_ * (total - prefill_pos_) : 0.0;
    if (req_.callbacks.on_prefill_progress)
        req_.callbacks.on_prefill_progress(prefill_tokens_done_, todo, eta);
    if (prefill_pos_ == total) {
        cache.checkpoint(); // the next question can rewind to here
        stats_.prefill_tps = elapsed > 0 ? prefill_tokens_done_ / elapsed : 0;
        phase_ = Phase::Decode;
        decode_start_ = Clock::now();
        if (req_.max_tokens <= 0) // prefill only: the session keeps what was read
            finish(StopReason::Length);
    }
    return {};
}

bool RequestJob::emit(const tokenizer::Tokenizer& tok, int32_t id) {
    history_.push_back(id);
    if (stats_.generated_tokens == 0)
        stats_.ttft_ms = seconds_since(submitted_) * 1000.0;
    ++stats_.generated_tokens;
    if (!req_.ignore_eos && tok.is_eog(id)) {
        finish(StopReason::Eos);
        return true;
    }
    auto step = out_->push(id);
    if (!step) {
        fail(step.error());
        return true;
    }
    if (req_.callbacks.on_token) // also with empty text: the UI counts tokens
        req_.callbacks.on_token(step->text, id);
    if (step->stopped) {
        finish(StopReason::StopString);
        return true;
    }
    if (stats_.generated_tokens >= req_.max_tokens) {
        finish(StopReason::Length);
        return true;
    }
    return false;
}

Status RequestJob::decode(StepContext& ctx, SessionCache& cache, Drafter& drafter) {
    const DecoderHandle& model = ctx.model.model();
    const int threads = ctx.model.threads();
    const int64_t context_limit = ctx.model.context_limit();
    const auto t0 = Clock::now();
    const int32_t id = sampler_->sample(logits_, history_);
    const int64_t room = context_limit - cache.length();
    if (emit(decoder_tokenizer(model), id))
        return {};
    if (room <= 1) {
        finish(StopReason::Length); // the context is full
        return {};
    }
    std::vector<int32_t> batch{id};
    const int max_draft = static_cast<int>(
        std::min<int64_t>({8, room - 1, req_.max_tokens - stats_.generated_tokens}));
    if (max_draft > 0 && decoder_facts(model).can_rollback) {
        FOLIO_TRY(drafted, drafter.propose(req_.speculation, max_draft, history_, cache.keys(), id,
                                           ctx.model.draft(), context_limit, threads));
        batch.insert(batch.end(), drafted.begin(), drafted.end());
    }
    const int64_t before = cache.length();
    std::vector<float> rows;
    FOLIO_CHECK(cache.eval(model, batch, batch.size() > 1, threads, rows));
    // Drafts are verified from these rows right away: never from zeros read after a fault.
    if (auto fault = ctx.model.check_in_step())
        return *fault;
    const int64_t V = decoder_facts(model).vocab_size;
    size_t accepted = 0;
    // Verify drafts: the model's own choice after batch[i] must equal batch[i + 1].
    for (size_t i = 1; i < batch.size(); ++i) {
        std::span<const float> row(rows.data() + (i - 1) * V, static_cast<size_t>(V));
        const int32_t choice = sampler_->sample(row, history_);
        ++stats_.spec_drafted;
        if (choice != batch[i]) {
            // The rejected draft's slot holds the model's own token: it is emitted and the next
            // step continues from it.
            logits_.clear();
            const bool finished = emit(decoder_tokenizer(model), choice);
            FOLIO_CHECK(cache.keep(before + static_cast<int64_t>(i)));
            if (!finished) // evaluate the model's token to get the logits after it
                FOLIO_CHECK(cache.eval(model, std::span(&choice, 1), false, threads, logits_));
            record_decode(ctx, t0, accepted + 2);
            return {};
        }
        ++stats_.spec_accepted;
        ++accepted;
        if (emit(decoder_tokenizer(model), batch[i])) {
            FOLIO_CHECK(cache.keep(before + static_cast<int64_t>(i) + 1));
            record_decode(ctx, t0, accepted + 1);
            return {};
        }
    }
    const size_t last = batch.size() - 1;
    logits_.assign(rows.begin() + static_cast<long>(last * V),
                   rows.begin() + static_cast<long>((last + 1) * V));
    record_decode(ctx, t0, accepted + 1);
    return {};
}

void RequestJob::record_decode(StepContext& ctx, Clock::time_point t0, size_t tokens) {
    const double seconds = seconds_since(t0);
    const double per_token = seconds / static_cast<double>(std::max<size_t>(1, tokens));
    if (req_.interactive)
        ctx.pacing.record_interactive_decode(per_token);
    statistics_.record_decode_step(seconds, static_cast<int64_t>(tokens));
}

void RequestJob::fail(const Error& e) {
    if (req_.callbacks.on_error)
        req_.callbacks.on_error(e);
    finish(StopReason::Error);
}

void RequestJob::finish(StopReason why) {
    if (finished_)
        return;
    finished_ = true;
    if (out_ && why != StopReason::StopString && why != StopReason::Error) {
        const std::string rest = out_->finish();
        if (!rest.empty() && req_.callbacks.on_token)
            req_.callbacks.on_token(rest, -1);
    }
    RequestStats& s = stats_;
    s.stop_reason = kStopNames[static_cast<int>(why)];
    s.prompt_read_tokens = prefill_pos_;
    s.text = out_ ? out_->text() : "";
    if (phase_ == Phase::Decode) {
        const double secs = seconds_since(decode_start_);
        s.decode_tps = s.generated_tokens > 1 && secs > 0 ? (s.generated_tokens - 1) / secs : 0;
    }
    statistics_.record_request(s);
    if (req_.callbacks.on_done)
        req_.callbacks.on_done(s);
}

} // namespace folio
