#include "model/layer/decoder_eval_types.h"

namespace folio {

size_t decoder_scratch_bytes(const DecoderScratch& d) {
    size_t floats = 0;
    for (const std::vector<float>* v : {&d.x,          &d.xn,
                                        &d.q,          &d.qa,
                                        &d.kv,         &d.qabs,
                                        &d.obar,       &d.o,
                                        &d.scores,     &d.tmp,
                                        &d.ffn.g,      &d.ffn.u,
                                        &d.ffn_out,    &d.router,
                                        &d.logits_in,  &d.kq,
                                        &d.kk,         &d.kv_,
                                        &d.kg,         &d.kbeta,
                                        &d.kgate,      &d.klow,
                                        &d.ko,         &d.iq,
                                        &d.iw,         &d.index_select.scores,
                                        &d.expert_rows})
        floats += v->capacity();
    for (const MlaHeadScratch& h : d.mla_heads)
        floats += h.floats();
    for (const auto* per_thread : {&d.team.xn, &d.team.qa})
        for (const std::vector<float>& v : *per_thread)
            floats += v.capacity();
    size_t team_bytes = 0; // each decode-region thread's converted FFN inputs
    for (const std::vector<QuantizedActivations>& inputs : d.ffn.token.team_inputs)
        for (const QuantizedActivations& q : inputs)
            team_bytes += q.storage.capacity();
    for (const ExpertScratch& e : d.experts)
        floats += e.x.capacity() + e.out.capacity() + e.ffn.g.capacity() + e.ffn.u.capacity();
    return floats * sizeof(float) + team_bytes + d.selected.capacity() * sizeof(int32_t) +
           d.sel_offset.capacity() * sizeof(int64_t);
}

} // namespace folio
