#include "runtime/decoder_adapter.h"

#include "cache/snapshot_file.h"
#include "runtime/decoder_handle.h"
#include "runtime/weights_memory.h"

#include "cache/prefix_index.h"
#include "model/decoder/decoder_model.h"

#include <algorithm>
#include <filesystem>

namespace folio {

namespace {

constexpr int64_t kRecurrentCheckpointTokens = 512; // prefill steps end here on recurrent models
constexpr int64_t kDefaultPrefixBudget = int64_t{2} << 30;

// Identifies a model file for snapshots: its size, layout and samples of its weights (the first
// and the last tensor's leading 64 KiB), without reading the whole file.
uint64_t model_fingerprint(const DecoderModel& m) {
    const auto& tensors = m.file->tensors();
    uint64_t h =
        checksum64(reinterpret_cast<const uint8_t*>(m.config.arch.data()), m.config.arch.size());
    const uint64_t sizes[3] = {m.file->file_size(), m.file->data_offset(), tensors.size()};
    h ^= checksum64(reinterpret_cast<const uint8_t*>(sizes), sizeof sizes);
    for (const auto* t : {&tensors.front(), &tensors.back()}) {
        h = h * 0x9e3779b97f4a7c15ull +
            checksum64(t->data, std::min<uint64_t>(t->size_bytes, uint64_t{64} << 10));
        h ^= checksum64(reinterpret_cast<const uint8_t*>(t->name.data()), t->name.size());
    }
    return h;
}

} // namespace

Expected<std::shared_ptr<DecoderHandle>> load_decoder_handle(const std::string& path,
                                                             const CacheOptions& cache) {
    FOLIO_TRY(model, load_decoder(path, cache.kv_type));
    FOLIO_TRY(tok, tokenizer::Tokenizer::from_gguf(*model->file));
    DecoderFacts facts;
    auto h = std::make_shared<DecoderHandle>(DecoderHandle{
        std::move(model), std::move(tok), std::move(facts), cache, nullptr, nullptr, path, 0, 0});
    h->file_size = h->model->file->file_size();
    h->fingerprint = model_fingerprint(*h->model);
    const ModelConfig& c = h->model->config;
    h->pool = decoder_kv_device(*h->model).make_kv_pool(pool_config_for(c, cache));
    const DecoderState probe = make_decoder_state(c, 1, cache.index_type);
    // Token rows are shared as whole tiles: blocks must hold whole tiles of them.
    if (cache.prefix_cache && cache.block_tokens % probe.token_row_tile() == 0) {
        const int64_t budget = cache.ram_budget >= 0 && !h->pool->has_disk() ? cache.ram_budget / 2
                                                                             : kDefaultPrefixBudget;
        h->prefix = std::make_unique<PrefixIndex>(h->pool, budget);
    }
    h->facts.architecture = c.arch;
    auto name = h->model->file->get_string("general.name");
    h->facts.name = name && *name ? **name : std::filesystem::path(path).stem().string();
    h->facts.vocab_size = c.n_vocab;
    h->facts.context_length = c.n_ctx_train;
    h->facts.can_rollback = !probe.recurrent();
    h->facts.placement = h->model->placement.describe();
    h->recurrent = !h->facts.can_rollback;
    return h;
}

const DecoderFacts& decoder_facts(const DecoderHandle& h) {
    return h.facts;
}

bool settle_decoder_weights(const DecoderHandle& h, WeightsMemory mode,
                            const std::function<void(double)>& progress,
                            const std::function<bool()>& cancelled) {
    return settle_weights(*h.model->file, mode, progress, cancelled);
}

bool decoder_weights_in_ram(const DecoderHandle& h) {
    return h.model->file->in_memory();
}

const tokenizer::Tokenizer& decoder_tokenizer(const DecoderHandle& h) {
    return h.tok;
}

Expected<tokenizer::TemplateKind> decoder_chat_template(const DecoderHandle& h) {
    FOLIO_TRY(tmpl, h.model->file->get_string("tokenizer.chat_template"));
    FOLIO_TRY(pre, h.model->file->get_string("tokenizer.ggml.pre"));
    return tokenizer::detect_chat_template(tmpl.value_or(""), pre.value_or(""));
}

ReadFaults decoder_read_faults(const DecoderHandle& h) {
    ReadFaults f;
    f.weights = h.model->file->read_faults();
    f.cache = h.pool ? h.pool->disk_faults() : 0;
    return f;
}

void drop_prefix_cache(const DecoderHandle& h) {
    if (h.prefix)
        h.prefix->clear();
}

uint64_t decoder_weight_bytes(const DecoderHandle& h) {
    return h.model->file->file_size();
}

std::unique_ptr<DecoderSequence> new_sequence(const DecoderHandle& h, int64_t max_tokens) {
    return std::unique_ptr<DecoderSequence>(new DecoderSequence{
        make_decoder_state(h.model->config, max_tokens, h.pool, h.cache.index_type), {}, {}});
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
size_t sequence_scratch_bytes(const DecoderSequence& s) {
    return decoder_scratch_bytes(s.scratch);
}

bool sequence_can_truncate_to(const DecoderSequence& s, int64_t n) {
    return s.state.can_truncate_to(n);
}
Status truncate_sequence(DecoderSequence& s, int64_t n) {
    FOLIO_CHECK(s.state.truncate(n));
    const size_t full = static_cast<size_t>(s.state.size() / s.state.kv().block_tokens());
    if (s.block_hashes.size() > full)
        s.block_hashes.resize(full);
    return {};
}
void checkpoint_sequence(DecoderSequence& s) {
    s.state.checkpoint();
}
int64_t sequence_checkpoint(const DecoderSequence& s) {
    return s.state.checkpoint_position();
}

int64_t prefix_step_end(const DecoderHandle& h, int64_t pos, int64_t total) {
    if (!h.prefix || !h.recurrent)
        return total;
    const int64_t bt = h.pool->config().block_tokens;
    int64_t end = (pos / kRecurrentCheckpointTokens + 1) * kRecurrentCheckpointTokens;
    if (const int64_t last_block = total / bt * bt; last_block > pos)
        end = std::min(end, last_block);
    return std::min(end, total);
}

int64_t adopt_cached_prefix(const DecoderHandle& h, DecoderSequence& s, const uint64_t* keys,
                            int64_t max_tokens, int64_t min_tokens) {
    if (!h.prefix)
        return 0;
    std::vector<const PrefixEntry*> found = h.prefix->match(keys, max_tokens);
    const bool recurrent = h.recurrent;
    // A recurrent model resumes only at the end of a block that kept its state.
    while (recurrent && !found.empty() && !found.back()->recurrent)
        found.pop_back();
    const int64_t bt = s.state.kv().block_tokens();
    const int64_t n = static_cast<int64_t>(found.size());
    if (n * bt <= min_tokens)
        return 0;
    std::vector<std::vector<BlockId>> per_layer(h.model->config.n_layer);
    for (const PrefixEntry* e : found)
        for (size_t il = 0; il < per_layer.size(); ++il)
            per_layer[il].push_back(e->blocks[il]);
    const auto* states =
        recurrent ? static_cast<const LayerStates*>(found.back()->recurrent.get()) : nullptr;
    s.state.adopt_prefix(per_layer, n * bt, states);
    bool has_rows = false;
    for (uint32_t il = 0; il < h.model->config.n_layer; ++il) {
        TokenRows* rows = s.state.token_rows(il);
        if (found.front()->side.size() <= il || found.front()->side[il].empty() || !rows)
            continue;
        std::vector<uint8_t> tiles;
        for (const PrefixEntry* e : found)
            tiles.insert(tiles.end(), e->side[il].begin(), e->side[il].end());
        if (!rows->append_raw(tiles.data(), n * bt)) {
            s.state.clear();
            s.block_hashes.clear();
            return 0;
        }
        has_rows = true;
    }
    if (has_rows)
        s.state.commit_token_rows(n * bt);
    s.state.checkpoint(); // the request may rewind here
    s.block_hashes.clear();
    for (const PrefixEntry* e : found)
        s.block_hashes.push_back(e->hash);
    return n * bt;
}

void register_prefix(const DecoderHandle& h, DecoderSequence& s, const uint64_t* keys) {
    if (!h.prefix)
        return;
    const PagedKv& kv = s.state.kv();
    const int64_t bt = kv.block_tokens();
    const int64_t full = s.state.size() / bt;
    const bool at_boundary = s.state.size() % bt == 0;
    const uint32_t L = kv.n_layers();
    for (int64_t b = static_cast<int64_t>(s.block_hashes.size()); b < full; ++b) {
        const uint64_t prev = b == 0 ? PrefixIndex::kSeed : s.block_hashes[b - 1];
        s.block_hashes.push_back(PrefixIndex::chain(prev, keys + b * bt, bt));
    }
    for (int64_t b = 0; b < full; ++b) {
        const bool last = b == full - 1;
        const uint64_t hash = s.block_hashes[b];
        if (h.prefix->contains(hash) && !(last && at_boundary && s.state.recurrent()))
            continue;
        std::vector<BlockId> blocks(L, -1);
        for (uint32_t il = 0; il < L; ++il)
            if (kv.layer_has_rows(il))
                blocks[il] = kv.blocks(il)[b];
        std::vector<std::vector<uint8_t>> side;
        if (s.state.has_token_rows()) {
            side.resize(L);
            for (uint32_t il = 0; il < L; ++il)
                if (const TokenRows* rows = s.state.token_rows(il)) {
                    const uint8_t* t = rows->raw();
                    side[il].assign(t + rows->bytes_for(b * bt), t + rows->bytes_for((b + 1) * bt));
                }
        }
        std::shared_ptr<const void> state;
        size_t state_bytes = 0;
        if (last && at_boundary && s.state.recurrent()) {
            state = s.state.recurrent_snapshot();
            state_bytes = s.state.recurrent_bytes();
        }
        h.prefix->insert(hash, b, keys + b * bt, blocks, std::move(side), std::move(state),
                         state_bytes);
    }
}

void fill_cache_stats(const DecoderHandle& h, CacheStats& out) {
    h.pool->fill_stats(out);
    if (h.prefix) {
        out.hits = h.prefix->hits();
        out.misses = h.prefix->misses();
    }
}

void sequence_block_map(const DecoderSequence& s, SessionBlockMap& out) {
    const PagedKv& kv = s.state.kv();
    const BlockPool& pool = *kv.pool();
    const int64_t bt = kv.block_tokens();
    out.tokens = s.state.size();
    const int64_t nb = (out.tokens + bt - 1) / bt;
    out.blocks.assign(static_cast<size_t>(nb), BlockCell{});
    for (int64_t b = 0; b < nb; ++b) {
        bool ram = false, disk = false;
        BlockCell& cell = out.blocks[b];
        for (uint32_t il = 0; il < kv.n_layers(); ++il) {
            if (!kv.layer_has_rows(il) || b >= static_cast<int64_t>(kv.blocks(il).size()))
                continue;
            const BlockId id = kv.blocks(il)[b];
            (pool.on_disk(id) ? disk : ram) = true;
            cell.shared = cell.shared || pool.refs(id) > 1;
            cell.last_use = std::max(cell.last_use, pool.last_use(id));
        }
        cell.tier = ram && disk ? BlockTier::Mixed : disk ? BlockTier::Disk : BlockTier::Ram;
    }
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
