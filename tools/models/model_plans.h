#pragma once
// Per-architecture model plans: each fills the GGUF metadata and lists the tensors (names and
// ne exactly as llama.cpp expects them). make_model.cpp draws and writes the payloads.

#include "folio/error.h"
#include "gguf/gguf_writer.h"
#include "make_model.h"
#include "tiny_vocab.h"

#include <string>
#include <vector>

namespace folio::tools {

// deepseek2: MLA (split attn_k_b / attn_v_b) + MoE with sigmoid routing.
Status plan_deepseek2(const std::string& preset, gguf::Writer& writer,
                      std::vector<TensorPlan>& plans);
// deepseek32: deepseek2 + the DSA lightning indexer in every layer.
Status plan_deepseek32(const std::string& preset, gguf::Writer& writer,
                       std::vector<TensorPlan>& plans);
// kimi-linear: KDA layers + NoPE MLA layers (3:1 schedule) + MoE.
Status plan_kimi_linear(const std::string& preset, gguf::Writer& writer,
                        std::vector<TensorPlan>& plans);
// docs/KIMI_HYBRID.md: kimi-linear whose MLA layers carry the deepseek32 indexer.
Status plan_kimi_hybrid(const std::string& preset, gguf::Writer& writer,
                        std::vector<TensorPlan>& plans);

// tokenizer.ggml.* keys of a tiny byte-level BPE vocabulary (pre-tokenizer kimi-k2).
void write_tokenizer(gguf::Writer& writer, const Vocab& vocab);

} // namespace folio::tools
