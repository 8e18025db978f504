#include "decoder_blocks.h"
#include "model/layer/tensor_names.h"

namespace folio::tools {

namespace tn = folio::tensor_name;

void write_moe_keys(gguf::Writer& w, const std::string& a, const MoeShape& m) {
    w.set_u32(a + "expert_count", m.experts);
    w.set_u32(a + "expert_used_count", m.experts_used);
    w.set_u32(a + "expert_shared_count", m.experts_shared);
    w.set_u32(a + "expert_feed_forward_length", m.ff_exp);
    w.set_u32(a + "leading_dense_block_count", m.dense_layers);
    w.set_f32(a + "expert_weights_scale", m.weights_scale);
    w.set_bool(a + "expert_weights_norm", true);
    w.set_u32(a + "expert_gating_func", 2);
}

void add_ffn_tensors(const AddTensor& add, const std::string& b, int64_t E, bool dense,
                     int64_t ff_dense, const MoeShape& m) {
    using I = TensorPlan::Init;
    if (dense) {
        add(b + tn::kFfnGate, {E, ff_dense}, I::Normal);
        add(b + tn::kFfnUp, {E, ff_dense}, I::Normal);
        add(b + tn::kFfnDown, {ff_dense, E}, I::Normal);
        return;
    }
    const int64_t X = m.experts, Fe = m.ff_exp, Fs = int64_t(m.ff_exp) * m.experts_shared;
    add(b + tn::kFfnGateInp, {E, X}, I::Normal);
    add(b + tn::kExpProbsB, {X}, I::SmallBias);
    add(b + tn::kFfnGateExps, {E, Fe, X}, I::Normal);
    add(b + tn::kFfnUpExps, {E, Fe, X}, I::Normal);
    add(b + tn::kFfnDownExps, {Fe, E, X}, I::Normal);
    if (m.experts_shared > 0) {
        add(b + tn::kFfnGateShexp, {E, Fs}, I::Normal);
        add(b + tn::kFfnUpShexp, {E, Fs}, I::Normal);
        add(b + tn::kFfnDownShexp, {Fs, E}, I::Normal);
    }
}

} // namespace folio::tools
