#pragma once
// Scaled-dot-product attention in f32, shared by both MLA forms
// (naive and absorbed) and the DSA top-k restriction:
//  * attend_causal: one head over a block of queries, O = softmax(Q·Kᵀ·scale + causal mask)·V;
//    query i sits at position pos0 + i and sees keys 0 .. pos0 + i.
//  * attend_mqa_causal: the same for heads sharing their keys (MLA's absorbed form).
// Both keep the whole queries × keys score matrix: prefill runs their blocked forms
// (model/attention/attention_flash.h), and tests compare those with these.
//  * attend_selected: all heads of one query over a chosen set of key rows (multi-query: the
//    heads share the rows; the values are the first dv floats of each row).

#include "cache/kv_view.h"
#include "kernels/kernel_context.h"
#include "kernels/mqa_rows.h"

#include <cstdint>
#include <vector>

namespace folio {

struct AttentionBlock {
    const float* q = nullptr; // nq rows of dqk floats, row stride q_stride
    int64_t q_stride = 0;
    int64_t nq = 0;
    int64_t dqk = 0;
    const float* k = nullptr; // key rows (at least pos0 + nq of them), stride k_stride
    int64_t k_stride = 0;
    const float* v = nullptr; // value rows, dv floats each, stride v_stride
    int64_t v_stride = 0;
    int64_t dv = 0;
    int64_t pos0 = 0;
    float scale = 1.0f;
    float* out = nullptr; // nq rows of dv floats, stride out_stride
    int64_t out_stride = 0;
};

// `scores` is scratch space (resized as needed). Single-threaded: callers parallelize over
// heads and query blocks.
void attend_causal(const AttentionBlock& b, std::vector<float>& scores);

// Multi-query form (all heads share K and V, as MLA's absorbed form):
// n_rows contiguous query rows, rows_per_query of them (heads) per query position;
// row r belongs to the query at position pos0 + r / rows_per_query. The keys are read once for
// all rows instead of once per head. Keys are the cached rows (dqk floats, read block by block);
// values are their first dv floats.
struct MqaBlock {
    const float* q = nullptr; // n_rows rows of dqk floats, stride q_stride
    int64_t q_stride = 0;
    int64_t n_rows = 0;
    int64_t rows_per_query = 1;
    int64_t dqk = 0;
    const KvView* kv = nullptr;
    int64_t dv = 0;
    int64_t pos0 = 0;
    float scale = 1.0f;
    float* out = nullptr; // n_rows rows of dv floats, stride out_stride
    int64_t out_stride = 0;
};
// `scores` and `block` are scratch.
void attend_mqa_causal(const MqaBlock& b, std::vector<float>& scores, std::vector<float>& block);

struct SelectedAttention {
    const float* q = nullptr; // n_heads rows of dqk floats, stride q_stride
    int64_t q_stride = 0;
    int64_t n_heads = 0;
    int64_t dqk = 0;
    const KvView* kv = nullptr; // key rows (the first dqk floats of cached rows) by `keys`
    int64_t dv = 0;             // values: the first dv floats of each key row
    const int32_t* keys = nullptr;
    int64_t n_keys = 0;
    float scale = 1.0f;
    float* out = nullptr; // n_heads rows of dv floats, stride out_stride
    int64_t out_stride = 0;
    KernelPath path = KernelPath::Auto; // the mqa_rows kernel (kernels/mqa_rows.h)
};

// Scratch of attend_selected: row pointers, rows decoded from non-f32 storage, softmax state.
struct SelectedScratch {
    std::vector<const float*> rows;
    std::vector<float> decoded, state;
};

// Single-threaded. The rows are read in place (f32 storage) with the mqa_rows kernel.
void attend_selected(const SelectedAttention& a, SelectedScratch& scratch);

// The same attention for one query over many keys (decode): the keys are split into `parts`
// ranges handled on `parts` OpenMP threads, and the partial softmax states merged. Equal to
// attend_selected up to float rounding.
void attend_selected_split(const SelectedAttention& a, int parts);

// attend_selected_split's steps, for a region already open (decode, kernels/decode_team.h):
// how many parts `threads` threads split the keys into; part p of them (on thread p, its state
// in that thread's scratch until its next call); the parts merged into a.out.
int attend_split_parts(const SelectedAttention& a, int threads);
MqaRowsState attend_selected_part(const SelectedAttention& a, int parts, int p);
void attend_selected_merge(const SelectedAttention& a, const MqaRowsState* states, int parts);

} // namespace folio
