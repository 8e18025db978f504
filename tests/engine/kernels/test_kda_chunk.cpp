// The KDA in-chunk kernels (kernels/kda_chunk.h): the reference and the AVX2 kernel (when the
// CPU has it) against float64 on odd shapes: chunk lengths 1, 7, 63, 64 and dk not a multiple
// of 8 (masked tails), q/k rows wider than dk, β with a stride, and decays from weak to strong
// enough that many exp(G_r − G_i) underflow to 0. Every element of A, L and the transposed
// decayed keys is checked, including the zeroed triangles.
#include <QtTest>

#include "kernels/kda_chunk.h"
#include "kernels/kernel_table.h"

#include <cmath>
#include <random>
#include <vector>

using namespace folio;

namespace {

struct Kernel {
    const char* name;
    KdaPairsFn pairs;
    KdaDecayKeysFn decay;
};

std::vector<Kernel> kernels_here() {
    std::vector<Kernel> ks{{"reference", ref::kda_pairs, ref::kda_decay_keys_t}};
#if defined(__x86_64__) // the SIMD kernels are built for x86-64 only
    if (avx2_kernels_available())
        ks.push_back({"avx2", avx2::kda_pairs, avx2::kda_decay_keys_t});
#endif
    return ks;
}

// float64 error bound of a float sum of m products whose magnitudes add to mag; the vector exp
// is within a few ulp, so 4 ulp per term on top of the summation bound. (Rounding the exponent
// G_r − G_i to float adds |G_r − G_i| ulp: the callers weight each term's magnitude by that.)
double tol_for(int64_t m, double mag) {
    return (m + 6) * 1.2e-7 * mag + 1e-30;
}

void check(const Kernel& kern, int64_t n, int64_t dk, float decay_scale, std::mt19937& rng) {
    const int64_t ld = dk + 3, bs = 2;
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::uniform_real_distribution<float> ud(0.0f, 1.0f);
    std::vector<float> q(static_cast<size_t>(n * ld)), k(q.size()), G(static_cast<size_t>(n * dk));
    std::vector<float> beta(static_cast<size_t>(n * bs));
    for (float& x : q)
        x = nd(rng) * 0.1f;
    for (float& x : k)
        x = nd(rng) * 0.1f;
    for (float& x : beta)
        x = ud(rng);
    for (int64_t r = 0; r < n; ++r) // G: running sums of g ≤ 0, per channel
        for (int64_t d = 0; d < dk; ++d)
            G[r * dk + d] = (r ? G[(r - 1) * dk + d] : 0.0f) - decay_scale * ud(rng) * ud(rng);

    std::vector<float> A(static_cast<size_t>(n * n), std::nanf("")), L(A),
        D(static_cast<size_t>(n * dk), std::nanf(""));
    KdaPairs p;
    p.n = n;
    p.dk = dk;
    p.G = G.data();
    p.q = q.data();
    p.k = k.data();
    p.ld_qk = ld;
    p.beta = beta.data();
    p.beta_stride = bs;
    p.A = A.data();
    p.L = L.data();
    kern.pairs(p);
    kern.decay(p, D.data());

    const auto fail = [&](const char* what, int64_t r, int64_t i, double got, double want,
                          double tol) {
        QFAIL(qPrintable(QStringLiteral("%1 n=%2 dk=%3 decay=%4: %5(%6,%7) = %8, want %9 (tol %10)")
                             .arg(kern.name)
                             .arg(n)
                             .arg(dk)
                             .arg(double(decay_scale))
                             .arg(what)
                             .arg(r)
                             .arg(i)
                             .arg(got)
                             .arg(want)
                             .arg(tol)));
    };
    for (int64_t r = 0; r < n; ++r) {
        for (int64_t i = 0; i < n; ++i) {
            double sa = 0, ma = 0, sl = 0, ml = 0;
            if (i <= r)
                for (int64_t d = 0; d < dk; ++d) {
                    const double x = double(G[r * dk + d]) - G[i * dk + d];
                    const double e = std::exp(x) * k[i * ld + d];
                    sa += q[r * ld + d] * e;
                    ma += std::fabs(q[r * ld + d] * e) * (1.0 - x);
                    sl += k[r * ld + d] * e;
                    ml += std::fabs(k[r * ld + d] * e) * (1.0 - x);
                }
            const double b = beta[r * bs];
            const double wa = i <= r ? sa : 0.0, wl = i < r ? b * sl : 0.0;
            const double ta = tol_for(dk, ma), tl = tol_for(dk, b * ml);
            if (!(std::fabs(A[r * n + i] - wa) <= ta))
                return fail("A", r, i, A[r * n + i], wa, ta);
            if (!(std::fabs(L[r * n + i] - wl) <= tl))
                return fail("L", r, i, L[r * n + i], wl, tl);
        }
    }
    for (int64_t i = 0; i < n; ++i)
        for (int64_t d = 0; d < dk; ++d) {
            const double x = double(G[(n - 1) * dk + d]) - G[i * dk + d];
            const double want = std::exp(x) * k[i * ld + d];
            const double tol = (6 - x) * 1.2e-7 * std::fabs(want) + 1e-30;
            if (!(std::fabs(D[d * n + i] - want) <= tol))
                return fail("Dt", d, i, D[d * n + i], want, tol);
        }
}

// The gate against float64 softplus: n channels in heads of dh (vectors straddling heads, a
// masked tail), inputs from −40 to 40 (past the threshold 20 and deep into log1p's small range).
void check_gate(const char* name, KdaGateFn fn, int64_t n, int64_t dh, std::mt19937& rng) {
    std::uniform_real_distribution<float> ud(-40.0f, 40.0f), ua(-3.0f, -0.01f);
    std::vector<float> x(static_cast<size_t>(n + 1)), dt(x.size()),
        a(static_cast<size_t>((n + dh - 1) / dh));
    for (size_t i = 0; i < x.size(); ++i) {
        x[i] = ud(rng);
        dt[i] = ud(rng) * 0.05f;
    }
    for (float& v : a)
        v = ua(rng);
    x[static_cast<size_t>(n)] = 777.0f; // past the end: must stay
    const std::vector<float> x0 = x;
    fn(x.data(), dt.data(), a.data(), n, dh);
    for (int64_t c = 0; c < n; ++c) {
        const float v = x0[c] + dt[c]; // the kernels add in float too
        const double sp = v > 20.0f ? double(v) : std::log1p(std::exp(double(v)));
        const double want = a[c / dh] * sp;
        const double tol = 4 * 1.2e-7 * std::fabs(want) + 1e-37;
        if (!(std::fabs(x[c] - want) <= tol))
            QFAIL(qPrintable(QStringLiteral("%1 gate n=%2 dh=%3: x[%4] (v=%5) = %6, want %7")
                                 .arg(name)
                                 .arg(n)
                                 .arg(dh)
                                 .arg(c)
                                 .arg(double(v))
                                 .arg(double(x[c]))
                                 .arg(want)));
    }
    QCOMPARE(x[static_cast<size_t>(n)], 777.0f);
}

} // namespace

class TestKdaChunk : public QObject {
    Q_OBJECT
private slots:
    void kernelChoice() {
        QVERIFY(kda_pairs_kernel(KernelPath::Reference) == &ref::kda_pairs);
        QVERIFY(kda_decay_keys_kernel(KernelPath::Reference) == &ref::kda_decay_keys_t);
#if defined(__x86_64__)
        if (avx2_kernels_available()) {
            QVERIFY(kda_pairs_kernel(KernelPath::Auto) == &avx2::kda_pairs);
            QVERIFY(kda_decay_keys_kernel(KernelPath::Auto) == &avx2::kda_decay_keys_t);
        }
#endif
    }

    void gate() {
        QVERIFY(kda_gate_kernel(KernelPath::Reference) == &ref::kda_gate);
        std::vector<std::pair<const char*, KdaGateFn>> ks{{"reference", ref::kda_gate}};
#if defined(__x86_64__)
        if (avx2_kernels_available())
            ks.push_back({"avx2", avx2::kda_gate});
#endif
        std::mt19937 rng(7);
        for (const auto& [name, fn] : ks)
            for (int64_t dh : {1, 3, 5, 8, 128})
                for (int64_t heads : {1, 3, 7}) {
                    check_gate(name, fn, dh * heads, dh, rng);
                    if (QTest::currentTestFailed())
                        return;
                }
    }

    void oddShapes() {
        std::mt19937 rng(24);
        for (const Kernel& kern : kernels_here()) {
            qInfo("testing %s", kern.name);
            for (int64_t n : {1, 2, 7, 63, 64})
                for (int64_t dk : {1, 5, 13, 64, 131})
                    for (float decay : {0.05f, 1.0f, 8.0f}) { // weak .. mostly underflowing
                        check(kern, n, dk, decay, rng);
                        if (QTest::currentTestFailed())
                            return;
                    }
        }
    }
};

QTEST_APPLESS_MAIN(TestKdaChunk)
#include "test_kda_chunk.moc"
