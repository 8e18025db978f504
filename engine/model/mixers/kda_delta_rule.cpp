#include "model/mixers/kda_delta_rule.h"

#include "kernels/gemm_f32.h"
#include "kernels/kda_chunk.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>

namespace folio {

namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowArray = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMajor, 0, Eigen::OuterStride<>>;
using MutMap = Eigen::Map<RowMajor, 0, Eigen::OuterStride<>>;
using Row = Eigen::Matrix<float, 1, Eigen::Dynamic>;

} // namespace

void kda_recurrent(const KdaSequence& q, float* state) {
    const int64_t dk = q.dk, dv = q.dv;
    MutMap S(state, dk, dv, Eigen::OuterStride<>(dv));
    Row u(dv);
    for (int64_t t = 0; t < q.n_tokens; ++t) {
        const float* g = q.g + t * q.g_stride;
        Eigen::Map<const Row> k(q.k + t * q.qk_stride, dk);
        Eigen::Map<const Row> qt(q.q + t * q.qk_stride, dk);
        Eigen::Map<const Row> v(q.v + t * q.v_stride, dv);
        Eigen::Map<Row> o(q.out + t * q.out_stride, dv);
        for (int64_t i = 0; i < dk; ++i)
            S.row(i) *= std::exp(g[i]);
        u.noalias() = k * S;
        u = q.beta[t * q.beta_stride] * (v - u);
        S.noalias() += k.transpose() * u;
        o.noalias() = qt * S;
    }
}

void kda_chunked(const KdaSequence& q, int64_t chunk, float* state, KdaChunkScratch& w) {
    const int64_t dk = q.dk, dv = q.dv;
    MutMap S(state, dk, dv, Eigen::OuterStride<>(dv));
    // The exp-heavy in-chunk terms run in vectorized kernels (kernels/kda_chunk.h).
    const KdaPairsFn pair_fn = kda_pairs_kernel(KernelPath::Auto);
    const KdaDecayKeysFn decay_fn = kda_decay_keys_kernel(KernelPath::Auto);
    for (int64_t t0 = 0; t0 < q.n_tokens; t0 += chunk) {
        const int64_t n = std::min(chunk, q.n_tokens - t0);
        ConstMap K(q.k + t0 * q.qk_stride, n, dk, Eigen::OuterStride<>(q.qk_stride));
        ConstMap Q(q.q + t0 * q.qk_stride, n, dk, Eigen::OuterStride<>(q.qk_stride));
        ConstMap V(q.v + t0 * q.v_stride, n, dv, Eigen::OuterStride<>(q.v_stride));
        MutMap O(q.out + t0 * q.out_stride, n, dv, Eigen::OuterStride<>(q.out_stride));

        // G_r = Σ_{i≤r} g_i (≤ 0, non-increasing), exp(G).
        w.G.resize(static_cast<size_t>(n * dk));
        w.eG.resize(static_cast<size_t>(n * dk));
        Eigen::Map<RowMajor> G(w.G.data(), n, dk);
        for (int64_t r = 0; r < n; ++r) {
            const float* g = q.g + (t0 + r) * q.g_stride;
            for (int64_t d = 0; d < dk; ++d)
                G(r, d) = (r ? G(r - 1, d) : 0.0f) + g[d];
        }
        Eigen::Map<RowMajor> eG(w.eG.data(), n, dk);
        eG = G.array().exp().matrix();

        // Pairwise in-chunk terms, exponents G_r − G_i ≤ 0 for i ≤ r:
        //   A[r, i] = Σ_d q_r k_i exp(G_r − G_i)        (i ≤ r)
        //   L[r, i] = β_r Σ_d k_r k_i exp(G_r − G_i)    (i < r)
        w.L.resize(static_cast<size_t>(n * n));
        w.A.resize(static_cast<size_t>(n * n));
        Eigen::Map<RowMajor> L(w.L.data(), n, n);
        KdaPairs pairs;
        pairs.n = n;
        pairs.dk = dk;
        pairs.G = w.G.data();
        pairs.q = q.q + t0 * q.qk_stride;
        pairs.k = q.k + t0 * q.qk_stride;
        pairs.ld_qk = q.qk_stride;
        pairs.beta = q.beta + t0 * q.beta_stride;
        pairs.beta_stride = q.beta_stride;
        pairs.A = w.A.data();
        pairs.L = w.L.data();
        pair_fn(pairs);

        // R = diag(β)·(V − (exp(G) ⊙ K)·S); V_new = (I + L)⁻¹·R by forward substitution.
        w.R.resize(static_cast<size_t>(n * dv));
        Eigen::Map<RowMajor> R(w.R.data(), n, dv);
        w.tmp.resize(static_cast<size_t>(n * dk));
        Eigen::Map<RowMajor> EK(w.tmp.data(), n, dk);
        EK = (eG.array() * K.array()).matrix();
        for (int64_t r = 0; r < n; ++r)
            R.row(r) = V.row(r);
        gemm_f32_ab(KernelPath::Auto, n, dv, dk, w.tmp.data(), dk, state, dv, w.R.data(), dv, true,
                    -1.0f);
        for (int64_t r = 0; r < n; ++r)
            R.row(r) *= q.beta[(t0 + r) * q.beta_stride];
        L.triangularView<Eigen::UnitLower>().solveInPlace(R);

        // O = (Q ⊙ exp(G))·S + A·V_new
        EK = (eG.array() * Q.array()).matrix();
        gemm_f32_ab(KernelPath::Auto, n, dv, dk, w.tmp.data(), dk, state, dv, O.data(),
                    q.out_stride);
        gemm_f32_ab(KernelPath::Auto, n, dv, n, w.A.data(), n, w.R.data(), dv, O.data(),
                    q.out_stride, true);

        // S ← diag(exp(G_n))·S + (exp(G_n − G) ⊙ K)ᵀ·V_new
        // (written transposed, dk × n, into D: the product wants it as the left factor)
        w.D.resize(static_cast<size_t>(n * dk));
        decay_fn(pairs, w.D.data());
        for (int64_t i = 0; i < dk; ++i)
            S.row(i) *= eG(n - 1, i);
        gemm_f32_ab(KernelPath::Auto, dk, dv, n, w.D.data(), n, w.R.data(), dv, state, dv, true);
    }
}

} // namespace folio
