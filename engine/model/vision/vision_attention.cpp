#include "model/vision/vision_attention.h"

#include "kernels/matmul.h"
#include "kernels/rope.h"
#include "kernels/softmax.h"
#include "tensor/tensor_view.h"

#include <algorithm>
#include <vector>

namespace folio::vision {

Status rope_2d(const KernelContext& ctx, float* x, int64_t n_tokens, int64_t n_head,
               int64_t head_dim, const int32_t* cols, const int32_t* rows, float theta) {
    // llama.cpp build_rope_2d without frequency interleaving: two NORM ropes over the halves of
    // each head, each with n_dims = head_dim/2 and the same base.
    const int64_t half = head_dim / 2;
    RopeParams p;
    p.n_dims = half;
    p.layout = RopeLayout::Norm;
    p.freq_base = theta;
    const int64_t stride = n_head * head_dim;
    FOLIO_CHECK(rope(ctx, p, x, half, n_head, n_tokens, head_dim, stride, cols));
    return rope(ctx, p, x + half, half, n_head, n_tokens, head_dim, stride, rows);
}

Status attention(const KernelContext& ctx, const float* q, const float* k, const float* v,
                 float* out, int64_t n_tokens, int64_t n_head, int64_t head_dim, float scale) {
    const int64_t n = n_tokens, stride = n_head * head_dim;
    // Queries per block: bounds the score buffer (kQueryBlock·n floats) for large images.
    constexpr int64_t kQueryBlock = 256;
    std::vector<float> scores(static_cast<size_t>(std::min(n, kQueryBlock) * n));
    std::vector<float> vt(static_cast<size_t>(head_dim * n));
    for (int64_t h = 0; h < n_head; ++h) {
        // K_h as a weight with ne [head_dim, n] (row s = key s, rows `stride` floats apart).
        TensorView kh = make_tensor_view(DType::F32, {head_dim, n, 1, 1}, k + h * head_dim);
        kh.nb[1] = static_cast<size_t>(stride) * sizeof(float);
        kh.nb[2] = kh.nb[1] * static_cast<size_t>(n);
        kh.nb[3] = kh.nb[2];
        // V_hᵀ as a weight with ne [n, head_dim] (row d = component d of every value).
        for (int64_t s = 0; s < n; ++s)
            for (int64_t d = 0; d < head_dim; ++d)
                vt[static_cast<size_t>(d * n + s)] = v[s * stride + h * head_dim + d];
        const TensorView vh = make_tensor_view(DType::F32, {n, head_dim, 1, 1}, vt.data());
        for (int64_t q0 = 0; q0 < n; q0 += kQueryBlock) {
            const int64_t nq = std::min(kQueryBlock, n - q0);
            FOLIO_CHECK(
                matmul(ctx, kh, q + q0 * stride + h * head_dim, stride, nq, scores.data(), n));
            softmax(ctx, scores.data(), n, nq, n, scale);
            FOLIO_CHECK(
                matmul(ctx, vh, scores.data(), n, nq, out + q0 * stride + h * head_dim, stride));
        }
    }
    return {};
}

} // namespace folio::vision
