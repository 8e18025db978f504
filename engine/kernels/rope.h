#pragma once
// Rotary position embedding with YaRN, as llama.cpp computes it (RoFormer, arXiv:2104.09864;
// YaRN, arXiv:2309.00071; ggml-cpu ops.cpp rope_yarn):
//   θ_extrap,i = p·base^(−2i/d), computed by repeated fp32 multiplication by base^(−2/d)
//   θ_interp   = freq_scale·θ_extrap
//   ext_factor ≠ 0: ramp_i = 1 − clamp((i − low)/max(0.001, high − low), 0, 1),
//                   θ = θ_interp·(1 − ramp_i·ext) + θ_extrap·ramp_i·ext,
//                   magnitude = attn_factor·(1 + 0.1·ln(1/freq_scale))
//   ext_factor = 0: θ = θ_interp, magnitude = attn_factor
//   low = max(0, floor(corr_dim(β_fast))), high = min(d − 1, ceil(corr_dim(β_slow))),
//   corr_dim(n) = d·ln(n_ctx_orig/(2πn)) / (2·ln base)
// NORM rotates adjacent pairs (2i, 2i+1); NEOX rotates (i, i + d/2). Head dimensions beyond
// n_dims pass through unchanged.

#include "folio/error.h"
#include "kernels/kernel_context.h"

#include <cstdint>

namespace folio {

enum class RopeLayout { Norm, Neox };

struct RopeParams {
    int64_t n_dims = 0; // rotated dimensions d (even)
    RopeLayout layout = RopeLayout::Norm;
    float freq_base = 10000.0f;
    float freq_scale = 1.0f; // 1/s
    float ext_factor = 0.0f; // 1 for YaRN
    float attn_factor = 1.0f;
    float beta_fast = 32.0f;
    float beta_slow = 1.0f;
    int n_ctx_orig = 0; // original training context L0
};

// {low, high} of the YaRN ramp (ggml_rope_yarn_corr_dims).
void rope_yarn_corr_dims(const RopeParams& p, float dims[2]);
// 1 − clamp((i − low)/max(0.001, high − low), 0, 1) for pair index i.
float rope_yarn_ramp(float low, float high, int64_t i);
// cs[2i] = cos θ_i·magnitude, cs[2i+1] = sin θ_i·magnitude for i < n_dims/2 at position pos.
void rope_cos_sin(const RopeParams& p, float pos, float* cs);

// In place on x: token t, head h starts at x + t·token_stride + h·head_stride (floats) and is
// rotated for position positions[t]. Error when n_dims is odd or exceeds head_dim.
Status rope(const KernelContext& ctx, const RopeParams& p, float* x, int64_t head_dim,
            int64_t n_heads, int64_t n_tokens, int64_t head_stride, int64_t token_stride,
            const int32_t* positions);

} // namespace folio
