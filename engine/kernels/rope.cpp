#include "kernels/rope.h"

#include "kernels/kernel_table.h"
#include "kernels/parallel.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace folio {

namespace {

float corr_dim(int64_t n_dims, int n_ctx_orig, float n_rot, float base) {
    return static_cast<float>(n_dims) *
           std::log(static_cast<float>(n_ctx_orig) / (n_rot * 2 * std::numbers::pi_v<float>)) /
           (2 * std::log(base));
}

} // namespace

void rope_yarn_corr_dims(const RopeParams& p, float dims[2]) {
    const float start = std::floor(corr_dim(p.n_dims, p.n_ctx_orig, p.beta_fast, p.freq_base));
    const float end = std::ceil(corr_dim(p.n_dims, p.n_ctx_orig, p.beta_slow, p.freq_base));
    dims[0] = std::max(0.0f, start);
    dims[1] = std::min(static_cast<float>(p.n_dims - 1), end);
}

float rope_yarn_ramp(float low, float high, int64_t i) {
    const float y = (static_cast<float>(i) - low) / std::max(0.001f, high - low);
    return 1 - std::min(1.0f, std::max(0.0f, y));
}

void rope_cos_sin(const RopeParams& p, float pos, float* cs) {
    float dims[2] = {0, 0};
    if (p.ext_factor != 0)
        rope_yarn_corr_dims(p, dims);
    const float theta_scale = std::pow(p.freq_base, -2.0f / static_cast<float>(p.n_dims));
    float mscale = p.attn_factor;
    if (p.ext_factor != 0)
        mscale *= 1.0f + 0.1f * std::log(1.0f / p.freq_scale);
    float theta_extrap = pos;
    for (int64_t i = 0; i < p.n_dims / 2; ++i) {
        const float theta_interp = p.freq_scale * theta_extrap;
        float theta = theta_interp;
        if (p.ext_factor != 0) {
            const float ramp_mix = rope_yarn_ramp(dims[0], dims[1], i) * p.ext_factor;
            theta = theta_interp * (1 - ramp_mix) + theta_extrap * ramp_mix;
        }
        cs[2 * i] = std::cos(theta) * mscale;
        cs[2 * i + 1] = std::sin(theta) * mscale;
        theta_extrap *= theta_scale;
    }
}

Status rope(const KernelContext& ctx, const RopeParams& p, float* x, int64_t head_dim,
            int64_t n_heads, int64_t n_tokens, int64_t head_stride, int64_t token_stride,
            const int32_t* positions) {
    if (p.n_dims <= 0 || p.n_dims % 2 != 0 || p.n_dims > head_dim)
        return make_error(
            ErrorCode::InvalidArgument,
            "rope: n_dims = " + std::to_string(p.n_dims) +
                " must be even, positive and <= head_dim = " + std::to_string(head_dim));
    if (p.ext_factor != 0 && p.n_ctx_orig <= 0)
        return make_error(ErrorCode::InvalidArgument, "rope: YaRN needs n_ctx_orig > 0");
    const auto fn = kernel_table(ctx.path).rope;
    const bool neox = p.layout == RopeLayout::Neox;
    parallel_rows(ctx, n_tokens, n_heads * p.n_dims * 8, [&](int64_t t) {
        std::vector<float> cs(static_cast<size_t>(p.n_dims));
        rope_cos_sin(p, static_cast<float>(positions[t]), cs.data());
        for (int64_t h = 0; h < n_heads; ++h)
            fn(x + t * token_stride + h * head_stride, cs.data(), p.n_dims, neox);
    });
    return {};
}

} // namespace folio
