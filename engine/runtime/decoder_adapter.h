#pragma once
// The runtime's only window onto the decoder models (engine/model/): load, per-sequence
// state, evaluation and rollback. Keeping it in one place keeps the scheduler independent of
// how the model code is organised.

#include "folio/cache.h"
#include "folio/engine.h"
#include "folio/error.h"
#include "tokenizer/chat_template.h"
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace folio {

struct DecoderHandle;   // a loaded model (weights mmapped) + tokenizer
struct DecoderSequence; // one sequence's cache and scratch

struct DecoderFacts {
    std::string architecture;
    std::string name;
    uint32_t vocab_size = 0;
    int64_t context_length = 0;
    bool can_rollback = true; // attention-only state: any suffix can be dropped (speculation)
    // Where the layers live (backend/device_plan.h's DevicePlan::describe).
    std::string placement;
};

// `cache`: the KV cache's storage type, RAM budget, disk tier and prefix sharing for every
// sequence of this model.
Expected<std::shared_ptr<DecoderHandle>> load_decoder_handle(const std::string& path,
                                                             const CacheOptions& cache = {});
const DecoderFacts& decoder_facts(const DecoderHandle& h);
// Copies the weights into RAM or reads every page of their mapping once, as `mode` and the
// machine allow (runtime/weights_memory.h), so they are resident before the first answer;
// reports the fraction done; stops early and returns false when `cancelled()` says so.
bool settle_decoder_weights(const DecoderHandle& h, WeightsMemory mode,
                            const std::function<void(double)>& progress,
                            const std::function<bool()>& cancelled);
// The weights are a private copy in RAM (settle_decoder_weights copied them).
bool decoder_weights_in_ram(const DecoderHandle& h);
const tokenizer::Tokenizer& decoder_tokenizer(const DecoderHandle& h);
// The chat template the model's metadata asks for.
Expected<tokenizer::TemplateKind> decoder_chat_template(const DecoderHandle& h);
uint64_t decoder_weight_bytes(const DecoderHandle& h);
// Pages that read as zeros after a SIGBUS (core/fault_guard.h): of the model file's mapping
// (truncated or rewritten under us) and of the KV cache's offload file (I/O error). Counts only
// grow.
struct ReadFaults {
    uint64_t weights = 0, cache = 0;
};
ReadFaults decoder_read_faults(const DecoderHandle& h);
// Forgets every shared prefix (their blocks go back to the pool once no sequence holds them).
void drop_prefix_cache(const DecoderHandle& h);

std::unique_ptr<DecoderSequence> new_sequence(const DecoderHandle& h, int64_t max_tokens);
void destroy_sequence(DecoderSequence* s);
int64_t sequence_length(const DecoderSequence& s);
size_t sequence_bytes(const DecoderSequence& s);
// Evaluation buffers of the sequence (capacity).
size_t sequence_scratch_bytes(const DecoderSequence& s);
// Keeps the first n tokens (n <= length). Recurrent states rewind only to 0, to the
// current length or to the last checkpoint: anything else is an error and changes nothing.
bool sequence_can_truncate_to(const DecoderSequence& s, int64_t n);
Status truncate_sequence(DecoderSequence& s, int64_t n);
// Remembers the current position as a rewind point (the end of a prompt).
void checkpoint_sequence(DecoderSequence& s);
int64_t sequence_checkpoint(const DecoderSequence& s); // -1 when none

// --- The prefix cache (engine/cache/prefix_index.h) ---
// Recurrent models keep a prefix-cache state only where a prefill step ends on a block
// boundary. For a prompt of `total` tokens prefilled from `pos`, the position the step should
// end at the latest: the next multiple of 512 tokens or the prompt's last block boundary
// (`total` when it does not matter).
int64_t prefix_step_end(const DecoderHandle& h, int64_t pos, int64_t total);
// When the prefix cache holds more than `min_tokens` leading tokens of `keys` (at most
// max_tokens, whole blocks, ending where a recurrent model has its state), replaces `s` with
// them and returns how many; else returns 0 and leaves `s` alone.
int64_t adopt_cached_prefix(const DecoderHandle& h, DecoderSequence& s, const uint64_t* keys,
                            int64_t max_tokens, int64_t min_tokens);
// Offers the full blocks of `s` (whose positions have keys[0 .. sequence_length)) to the prefix
// cache, with the recurrent state when `s` ends on a block boundary.
void register_prefix(const DecoderHandle& h, DecoderSequence& s, const uint64_t* keys);
// The pool's and the prefix cache's statistics.
void fill_cache_stats(const DecoderHandle& h, CacheStats& out);
// One session's blocks for the cache view.
void sequence_block_map(const DecoderSequence& s, SessionBlockMap& out);

// Width of one input row (the text model's hidden size).
int64_t decoder_embedding_size(const DecoderHandle& h);
// token_embd rows of `tokens` into out[n][embedding_size].
Status embed_tokens(const DecoderHandle& h, const int32_t* tokens, int64_t n, float* out);
// Appends n rows given as embeddings (image rows mixed with embedded tokens).
Status eval_embeddings(const DecoderHandle& h, DecoderSequence& s, const float* rows, int64_t n,
                       bool all_logits, int threads, std::vector<float>& logits);

// Appends n tokens; logits of every new position ([n][vocab]) or of the last one.
Status eval_tokens(const DecoderHandle& h, DecoderSequence& s, const int32_t* tokens, int64_t n,
                   bool all_logits, int threads, std::vector<float>& logits);

} // namespace folio

// unique_ptr<DecoderSequence> needs a deleter visible where it is destroyed.
template <> struct std::default_delete<folio::DecoderSequence> {
    void operator()(folio::DecoderSequence* s) const { folio::destroy_sequence(s); }
};
