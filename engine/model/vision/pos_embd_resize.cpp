#include "model/vision/pos_embd_resize.h"

#include "kernels/parallel.h"

#include <algorithm>
#include <cmath>

namespace folio::vision {

namespace {

// Source taps of one output coordinate along one axis, with unnormalised triangle weights.
struct Taps {
    int64_t first = 0;
    std::vector<float> weights;
};

// One axis of ggml's antialiased bilinear upscale: centre (i + 0.5)/sf, support max(1, 1/sf),
// taps [trunc(centre − support + 0.5), trunc(centre + support + 0.5)) clipped to the source.
std::vector<Taps> axis_taps(int src, int dst) {
    const float sf = static_cast<float>(dst) / static_cast<float>(src);
    const float support = std::max(1.0f, 1.0f / sf);
    const float invscale = 1.0f / support;
    constexpr float kOffset = 0.5f;
    std::vector<Taps> taps(static_cast<size_t>(dst));
    for (int i = 0; i < dst; ++i) {
        const float centre = (static_cast<float>(i) + kOffset) / sf;
        const int64_t lo = std::max<int64_t>(static_cast<int64_t>(centre - support + kOffset), 0);
        const int64_t hi = std::min<int64_t>(static_cast<int64_t>(centre + support + kOffset), src);
        Taps& t = taps[static_cast<size_t>(i)];
        t.first = lo;
        for (int64_t s = lo; s < hi; ++s)
            t.weights.push_back(std::max(
                1.0f - std::fabs((static_cast<float>(s) - centre + kOffset) * invscale), 0.0f));
    }
    return taps;
}

} // namespace

std::vector<float> resize_pos_embd(const KernelContext& ctx, const float* table, int64_t n_embd,
                                   int src_w, int src_h, int dst_w, int dst_h) {
    const size_t e = static_cast<size_t>(n_embd);
    std::vector<float> out(static_cast<size_t>(dst_w) * static_cast<size_t>(dst_h) * e);
    if (src_w == dst_w && src_h == dst_h) {
        std::copy_n(table, out.size(), out.data());
        return out;
    }
    const std::vector<Taps> tx = axis_taps(src_w, dst_w);
    const std::vector<Taps> ty = axis_taps(src_h, dst_h);
    // Each output cell accumulates in the same (sy, sx) order as ggml, skipping zero weights, so
    // every channel gets the same float sum order.
    parallel_rows(ctx, static_cast<int64_t>(dst_h) * dst_w, n_embd * 8, [&](int64_t cell) {
        const Taps& y = ty[static_cast<size_t>(cell / dst_w)];
        const Taps& x = tx[static_cast<size_t>(cell % dst_w)];
        float* o = out.data() + static_cast<size_t>(cell) * e;
        std::vector<float> acc(e, 0.0f);
        float total = 0.0f;
        for (size_t j = 0; j < y.weights.size(); ++j) {
            for (size_t i = 0; i < x.weights.size(); ++i) {
                const float w = x.weights[i] * y.weights[j];
                if (w <= 0.0f)
                    continue;
                const float* src =
                    table + (static_cast<size_t>(y.first + static_cast<int64_t>(j)) * src_w +
                             static_cast<size_t>(x.first + static_cast<int64_t>(i))) *
                                e;
                for (size_t c = 0; c < e; ++c)
                    acc[c] += src[c] * w;
                total += w;
            }
        }
        for (size_t c = 0; c < e; ++c)
            o[c] = total > 0.0f ? acc[c] / total : acc[c];
    });
    return out;
}

} // namespace folio::vision
