#include "kernels/mqa_rows.h"

#include "kernels/kernel_table.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace folio {

namespace ref {

// Row by row, in double for the dot products: the plain definition the AVX2 kernel is
// compared with.
void mqa_rows(const MqaRowsQuery& q, const float* const* rows, int64_t n, const MqaRowsState& st) {
    for (int64_t j = 0; j < n; ++j) {
        const float* k = rows[j];
        for (int64_t h = 0; h < q.n_heads; ++h) {
            const float* qh = q.q + h * q.q_stride;
            double dot = 0;
            for (int64_t i = 0; i < q.dqk; ++i)
                dot += static_cast<double>(qh[i]) * k[i];
            const float s = static_cast<float>(dot) * q.scale;
            float* o = st.o + h * q.dv;
            if (s > st.m[h]) { // a new maximum: rescale what was summed so far
                const float f = std::exp(st.m[h] - s);
                st.l[h] *= f;
                for (int64_t i = 0; i < q.dv; ++i)
                    o[i] *= f;
                st.m[h] = s;
            }
            const float p = std::exp(s - st.m[h]);
            st.l[h] += p;
            for (int64_t i = 0; i < q.dv; ++i)
                o[i] += p * k[i];
        }
    }
}

} // namespace ref

MqaRowsFn mqa_rows_kernel(KernelPath path) {
#if defined(FOLIO_X86)
    if (path == KernelPath::Auto && avx512_vnni_kernels_available())
        return avx512::mqa_rows;
    if (path != KernelPath::Reference && avx2_kernels_available())
        return avx2::mqa_rows;
#else
    (void)path;
#endif
    return ref::mqa_rows;
}

void mqa_rows_init(const MqaRowsQuery& q, const MqaRowsState& st) {
    std::fill(st.m, st.m + q.n_heads, -std::numeric_limits<float>::infinity());
    std::fill(st.l, st.l + q.n_heads, 0.0f);
    std::fill(st.o, st.o + q.n_heads * q.dv, 0.0f);
}

void mqa_rows_merge(const MqaRowsQuery& q, const MqaRowsState* parts, int n_parts, float* out,
                    int64_t out_stride) {
    for (int64_t h = 0; h < q.n_heads; ++h) {
        float M = -std::numeric_limits<float>::infinity();
        for (int p = 0; p < n_parts; ++p)
            M = std::max(M, parts[p].m[h]);
        float* o = out + h * out_stride;
        std::fill(o, o + q.dv, 0.0f);
        if (M == -std::numeric_limits<float>::infinity())
            continue;
        float total = 0.0f;
        for (int p = 0; p < n_parts; ++p) {
            if (parts[p].m[h] == -std::numeric_limits<float>::infinity())
                continue;
            const float w = std::exp(parts[p].m[h] - M);
            total += w * parts[p].l[h];
            const float* po = parts[p].o + h * q.dv;
            for (int64_t i = 0; i < q.dv; ++i)
                o[i] += w * po[i];
        }
        const float inv = 1.0f / total;
        for (int64_t i = 0; i < q.dv; ++i)
            o[i] *= inv;
    }
}

} // namespace folio
