// The plain softmax step of flash attention (kernels/flash_tile.h) and the kernel choice.
#include "kernels/flash_tile.h"

#include "kernels/kernel_table.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace folio {

namespace ref {

void flash_tile(const FlashTile& t) {
    for (int64_t r = 0; r < t.rows; ++r) {
        float* s = t.s + r * t.ld;
        const int64_t vis = std::clamp<int64_t>(t.vis0 + r / t.rows_per_query, 0, t.nk);
        if (vis == 0) {
            std::fill(s, s + t.nk, 0.0f);
            t.rescale[r] = 1.0f;
            continue;
        }
        float mt = -std::numeric_limits<float>::infinity();
        for (int64_t j = 0; j < vis; ++j)
            mt = std::max(mt, s[j] * t.scale);
        const float m_new = std::max(t.m[r], mt);
        const float f = std::exp(t.m[r] - m_new); // 0 when nothing was seen (m = −inf)
        float sum = 0.0f;
        for (int64_t j = 0; j < vis; ++j) {
            s[j] = std::exp(s[j] * t.scale - m_new);
            sum += s[j];
        }
        std::fill(s + vis, s + t.nk, 0.0f);
        t.l[r] = t.l[r] * f + sum;
        t.m[r] = m_new;
        t.rescale[r] = f;
    }
}

} // namespace ref

FlashTileFn flash_tile_kernel(KernelPath path) {
#if defined(FOLIO_X86)
    if (path != KernelPath::Reference && avx2_kernels_available())
        return avx2::flash_tile;
#else
    (void)path;
#endif
    return ref::flash_tile;
}

} // namespace folio
