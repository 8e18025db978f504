#pragma once
// Every GGUF tensor name of the decoder architectures, in one table (llama.cpp's
// LLM_TENSOR_NAMES in src/llama-arch.cpp; docs/KIMI_HYBRID.md). Layer tensors
// are named "blk.<il>." + the name below (layer_tensor()). The engine's weight binding, the
// random-weight generators (tools/models/) and the tests spell them only through this table.

#include <cstdint>
#include <string>

namespace folio::tensor_name {

// Model-wide tensors.
inline constexpr const char* kTokenEmbd = "token_embd.weight";
inline constexpr const char* kOutputNorm = "output_norm.weight";
inline constexpr const char* kOutput = "output.weight";

// Every layer.
inline constexpr const char* kAttnNorm = "attn_norm.weight";
inline constexpr const char* kAttnOutput = "attn_output.weight"; // the mixer's output projection
inline constexpr const char* kFfnNorm = "ffn_norm.weight";

// MLA.
inline constexpr const char* kAttnQ = "attn_q.weight"; // also KDA's q projection
inline constexpr const char* kAttnQA = "attn_q_a.weight";
inline constexpr const char* kAttnQANorm = "attn_q_a_norm.weight";
inline constexpr const char* kAttnQB = "attn_q_b.weight";
inline constexpr const char* kAttnKvAMqa = "attn_kv_a_mqa.weight";
inline constexpr const char* kAttnKvANorm = "attn_kv_a_norm.weight";
inline constexpr const char* kAttnKB = "attn_k_b.weight";
inline constexpr const char* kAttnVB = "attn_v_b.weight";

// The DSA lightning indexer of an MLA layer.
inline constexpr const char* kIndexerQB = "indexer.attn_q_b.weight";
inline constexpr const char* kIndexerK = "indexer.attn_k.weight";
inline constexpr const char* kIndexerKNorm = "indexer.k_norm.weight";
inline constexpr const char* kIndexerKNormBias = "indexer.k_norm.bias";
inline constexpr const char* kIndexerProj = "indexer.proj.weight";

// KDA.
inline constexpr const char* kKdaK = "attn_k.weight";
inline constexpr const char* kKdaV = "attn_v.weight";
inline constexpr const char* kKdaConvQ = "ssm_conv1d_q.weight";
inline constexpr const char* kKdaConvK = "ssm_conv1d_k.weight";
inline constexpr const char* kKdaConvV = "ssm_conv1d_v.weight";
inline constexpr const char* kKdaFA = "ssm_f_a.weight";
inline constexpr const char* kKdaFB = "ssm_f_b.weight";
inline constexpr const char* kKdaDtBias = "ssm_dt.bias";
inline constexpr const char* kKdaA = "ssm_a";
inline constexpr const char* kKdaBeta = "ssm_beta.weight";
inline constexpr const char* kKdaGA = "ssm_g_a.weight";
inline constexpr const char* kKdaGB = "ssm_g_b.weight";
inline constexpr const char* kKdaNorm = "ssm_norm.weight";

// Dense FFN and MoE.
inline constexpr const char* kFfnGate = "ffn_gate.weight";
inline constexpr const char* kFfnUp = "ffn_up.weight";
inline constexpr const char* kFfnDown = "ffn_down.weight";
inline constexpr const char* kFfnGateInp = "ffn_gate_inp.weight";
inline constexpr const char* kExpProbsB = "exp_probs_b.bias";
inline constexpr const char* kFfnGateExps = "ffn_gate_exps.weight";
inline constexpr const char* kFfnUpExps = "ffn_up_exps.weight";
inline constexpr const char* kFfnDownExps = "ffn_down_exps.weight";
inline constexpr const char* kFfnGateShexp = "ffn_gate_shexp.weight";
inline constexpr const char* kFfnUpShexp = "ffn_up_shexp.weight";
inline constexpr const char* kFfnDownShexp = "ffn_down_shexp.weight";

// "blk.<il>." — the prefix of layer il's tensors.
inline std::string layer_prefix(uint32_t il) {
    return "blk." + std::to_string(il) + ".";
}
// "blk.<il>.<name>".
inline std::string layer_tensor(uint32_t il, const char* name) {
    return layer_prefix(il) + name;
}

} // namespace folio::tensor_name
