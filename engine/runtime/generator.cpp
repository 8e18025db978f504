#include "runtime/generator.h"

#include <algorithm>
#include <chrono>

namespace folio {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Length of the longest suffix of `text` that is a proper prefix of some stop string: those
// bytes may still become a stop string and must not be shown yet.
size_t held_back(const std::string& text, const std::vector<std::string>& stops) {
    size_t hold = 0;
    for (const std::string& s : stops)
        for (size_t n = std::min(s.size() - 1, text.size()); n > hold; --n)
            if (text.compare(text.size() - n, n, s, 0, n) == 0) {
                hold = n;
                break;
            }
    return hold;
}

} // namespace

Expected<GenerateResult> generate(const EvalFn& eval, const tokenizer::Tokenizer& tok,
                                  const std::vector<int32_t>& prompt, const GenerateOptions& o,
                                  const TokenSink& sink) {
    if (prompt.empty())
        return make_error(ErrorCode::InvalidArgument, "empty prompt");
    std::vector<std::string> stops;
    for (const auto& s : o.stop)
        if (!s.empty())
            stops.push_back(s);

    GenerateResult r;
    r.n_prompt = static_cast<int64_t>(prompt.size());
    std::vector<float> logits;
    auto t0 = std::chrono::steady_clock::now();
    FOLIO_CHECK(eval(prompt.data(), static_cast<int64_t>(prompt.size()), logits));
    r.prefill_seconds = seconds_since(t0);

    Sampler sampler(o.sampling);
    std::vector<int32_t> history(prompt);
    tokenizer::StreamDecoder decoder(tok);
    std::string text;   // all generated text so far
    size_t emitted = 0; // bytes of `text` already given to the sink
    auto t1 = std::chrono::steady_clock::now();
    for (int i = 0; i < o.max_tokens; ++i) {
        const int32_t id = sampler.sample(logits, history);
        history.push_back(id);
        r.tokens.push_back(id);
        if (!o.ignore_eos && tok.is_eog(id)) {
            r.reason = StopReason::EndOfGeneration;
            break;
        }
        FOLIO_TRY(piece, decoder.push(id));
        text += piece;
        // A stop string completed: cut it (and what follows) and stop.
        size_t cut = std::string::npos;
        for (const auto& s : stops) {
            const size_t from = emitted > s.size() ? emitted - s.size() : 0;
            const size_t at = text.find(s, from);
            if (at != std::string::npos)
                cut = std::min(cut, at);
        }
        if (cut != std::string::npos) {
            text.resize(cut);
            if (sink && cut > emitted)
                sink(std::string_view(text).substr(emitted), id);
            emitted = text.size();
            r.reason = StopReason::StopString;
            break;
        }
        const size_t safe = text.size() - held_back(text, stops);
        if (sink) {
            const std::string_view out = safe > emitted ? std::string_view(text).substr(emitted, safe - emitted)
                                                        : std::string_view();
            if (!sink(out, id)) {
                emitted = std::max(emitted, safe);
                r.reason = StopReason::Cancelled;
                break;
            }
        }
        emitted = std::max(emitted, safe);
        if (i + 1 == o.max_tokens)
            break; // no need to evaluate a token nobody will sample from
        FOLIO_CHECK(eval(&id, 1, logits));
    }
    if (r.reason == StopReason::MaxTokens || r.reason == StopReason::Cancelled ||
        r.reason == StopReason::EndOfGeneration) {
        text += decoder.finish();
        if (sink && text.size() > emitted)
            sink(std::string_view(text).substr(emitted), -1);
    }
    r.text = std::move(text);
    r.decode_seconds = seconds_since(t1);
    return r;
}

} // namespace folio
