#include "runtime/generator.h"

#include "runtime/output_stream.h"

#include <chrono>

namespace folio {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

Expected<GenerateResult> generate(const EvalFn& eval, const tokenizer::Tokenizer& tok,
                                  const std::vector<int32_t>& prompt, const GenerateOptions& o,
                                  const TokenSink& sink) {
    if (prompt.empty())
        return make_error(ErrorCode::InvalidArgument, "empty prompt");
    GenerateResult r;
    r.n_prompt = static_cast<int64_t>(prompt.size());
    std::vector<float> logits;
    auto t0 = std::chrono::steady_clock::now();
    FOLIO_CHECK(eval(prompt.data(), static_cast<int64_t>(prompt.size()), logits));
    r.prefill_seconds = seconds_since(t0);

    Sampler sampler(o.sampling);
    std::vector<int32_t> history(prompt);
    OutputStream out(tok, o.stop);
    auto t1 = std::chrono::steady_clock::now();
    bool done = false;
    for (int i = 0; i < o.max_tokens && !done; ++i) {
        const int32_t id = sampler.sample(logits, history);
        history.push_back(id);
        r.tokens.push_back(id);
        if (!o.ignore_eos && tok.is_eog(id)) {
            r.reason = StopReason::EndOfGeneration;
            break;
        }
        FOLIO_TRY(step, out.push(id));
        if (sink && !sink(step.text, id)) {
            r.reason = StopReason::Cancelled;
            break;
        }
        if (step.stopped) {
            r.reason = StopReason::StopString;
            done = true;
            break;
        }
        if (i + 1 < o.max_tokens)
            FOLIO_CHECK(eval(&id, 1, logits));
    }
    if (r.reason != StopReason::StopString) {
        const std::string rest = out.finish();
        if (sink && !rest.empty())
            sink(rest, -1);
    }
    r.text = out.text();
    r.decode_seconds = seconds_since(t1);
    return r;
}

} // namespace folio
