#include "runtime/decoder_adapter.h"

#include "model/decoder_model.h"

#include <filesystem>

namespace folio {

struct DecoderHandle {
    std::unique_ptr<DecoderModel> model;
    tokenizer::Tokenizer tok;
    DecoderFacts facts;
};

struct DecoderSequence {
    DecoderState state;
    DecoderScratch scratch;
};

Expected<std::shared_ptr<DecoderHandle>> load_decoder_handle(const std::string& path) {
    FOLIO_TRY(model, load_decoder(path));
    FOLIO_TRY(tok, tokenizer::Tokenizer::from_gguf(*model->file));
    auto h = std::make_shared<DecoderHandle>(DecoderHandle{std::move(model), std::move(tok), {}});
    const ModelConfig& c = h->model->config;
    h->facts.architecture = c.arch;
    auto name = h->model->file->get_string("general.name");
    h->facts.name = name && *name ? **name : std::filesystem::path(path).stem().string();
    h->facts.vocab_size = c.n_vocab;
    h->facts.context_length = c.n_ctx_train;
    h->facts.can_rollback = !make_decoder_state(c, 1).has_kda();
    return h;
}

const DecoderFacts& decoder_facts(const DecoderHandle& h) {
    return h.facts;
}

bool prefault_weights(const DecoderHandle& h, const std::function<void(double)>& progress,
                      const std::function<bool()>& cancelled) {
    constexpr uint64_t kPage = 4096, kReport = 64ull << 20; // report every 64 MiB
    uint64_t total = 0, done = 0, next_report = kReport;
    for (const auto& t : h.model->file->tensors())
        total += t.size_bytes;
    volatile uint8_t sink = 0;
    for (const auto& t : h.model->file->tensors()) {
        const uint8_t* p = t.data;
        for (uint64_t off = 0; off < t.size_bytes; off += kPage) {
            sink = sink + p[off];
            if ((done += std::min(kPage, t.size_bytes - off)) >= next_report) {
                next_report += kReport;
                if (cancelled && cancelled())
                    return false;
                if (progress)
                    progress(total ? double(done) / double(total) : 1.0);
            }
        }
    }
    (void)sink;
    if (progress)
        progress(1.0);
    return true;
}
const tokenizer::Tokenizer& decoder_tokenizer(const DecoderHandle& h) {
    return h.tok;
}

Expected<tokenizer::TemplateKind> decoder_chat_template(const DecoderHandle& h) {
    FOLIO_TRY(tmpl, h.model->file->get_string("tokenizer.chat_template"));
    FOLIO_TRY(pre, h.model->file->get_string("tokenizer.ggml.pre"));
    return tokenizer::detect_chat_template(tmpl.value_or(""), pre.value_or(""));
}

uint64_t decoder_weight_bytes(const DecoderHandle& h) {
    return h.model->file->file_size();
}

std::unique_ptr<DecoderSequence> new_sequence(const DecoderHandle& h, int64_t max_tokens) {
    return std::unique_ptr<DecoderSequence>(
        new DecoderSequence{make_decoder_state(h.model->config, max_tokens), {}});
}

void destroy_sequence(DecoderSequence* s) {
    delete s;
}
int64_t sequence_length(const DecoderSequence& s) {
    return s.state.size();
}
size_t sequence_bytes(const DecoderSequence& s) {
    return s.state.bytes();
}
bool sequence_can_truncate_to(const DecoderSequence& s, int64_t n) {
    return s.state.can_truncate_to(n);
}
Status truncate_sequence(DecoderSequence& s, int64_t n) {
    return s.state.truncate(n);
}
void checkpoint_sequence(DecoderSequence& s) {
    s.state.checkpoint();
}
int64_t sequence_checkpoint(const DecoderSequence& s) {
    return s.state.checkpoint_position();
}

int64_t decoder_embedding_size(const DecoderHandle& h) {
    return h.model->config.n_embd;
}

Status embed_tokens(const DecoderHandle& h, const int32_t* tokens, int64_t n, float* out) {
    return decoder_embed_tokens(*h.model, tokens, n, out, KernelContext{1, KernelPath::Auto});
}

Status eval_embeddings(const DecoderHandle& h, DecoderSequence& s, const float* rows, int64_t n,
                       bool all_logits, int threads, std::vector<float>& logits) {
    EvalOptions opt;
    opt.kernels.n_threads = threads;
    opt.all_logits = all_logits;
    return decoder_eval_embeddings(*h.model, s.state, s.scratch, rows, n, opt, logits);
}

Status eval_tokens(const DecoderHandle& h, DecoderSequence& s, const int32_t* tokens, int64_t n,
                   bool all_logits, int threads, std::vector<float>& logits) {
    EvalOptions opt;
    opt.kernels.n_threads = threads;
    opt.all_logits = all_logits;
    return decoder_eval(*h.model, s.state, s.scratch, tokens, n, opt, logits);
}

} // namespace folio
