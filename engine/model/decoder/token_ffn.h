#pragma once
// One token's SwiGLU MLPs in a single parallel region (decode): the routed experts it chose plus
// the shared ones, or a dense layer's MLP.
//
// Every thread takes one share of rows of each gate and up projection, then, after one
// barrier, one share of rows of each down projection and the weighted sum over those output
// rows; the shares follow the threads' measured speeds (kctx.balance, kernels/thread_balance.h;
// equal without it). So the threads stream contiguous rows of every matrix, finish together and
// meet once per layer.
// Running the experts side by side, one thread each (moe_ffn's batch path), leaves a thread
// waiting when the other's experts read slower, and the shared expert then takes three regions
// of its own.
//
// The numbers are the batch path's (moe_ffn, dense_ffn) bit for bit: the same row kernels on the
// same quantized inputs, and out = Σ weight · y summed in the order given.

#include "folio/error.h"
#include "model/layer/decoder_eval_types.h"
#include "model/layer/team_steps.h"
#include "tensor/tensor_view.h"

#include <cstdint>
#include <span>

namespace folio {

struct TokenMlp {
    TensorView gate, up, down; // 2-D: [E, F], [E, F] and [F, E]
    float weight = 1.0f;       // its factor in the sum
};

// out[0 .. E) = Σ_i mlps[i].weight · down_i(silu(gate_i·xn) ⊙ up_i·xn), in the order given.
Status token_ffn(const KernelContext& kctx, std::span<const TokenMlp> mlps, const float* xn,
                 int64_t E, TokenFfnScratch& s, float* out);

// Decode as one region (kernels/decode_team.h): token_ffn_reserve sizes the shared buffers
// before the region for up to n_mlps MLPs of f_total gate rows in all; inside it every thread
// of tk.team calls token_ffn_member with the same MLPs: it converts xn for itself, takes its
// shares as token_ffn's threads do (one barrier, which a failed thread meets too) and writes
// its share of out — adding it to residual[r] as well when residual is set. Errors land in
// `st` (this thread's) or steps.errors (thrown); token_ffn's numbers bit for bit.
void token_ffn_reserve(TokenFfnScratch& s, int threads, int64_t n_mlps, int64_t f_total, int64_t E);
void token_ffn_member(const KernelContext& tk, std::span<const TokenMlp> mlps, const float* xn,
                      int64_t E, TokenFfnScratch& s, float* out, float* residual, TeamSteps& steps,
                      Status& st);

} // namespace folio
