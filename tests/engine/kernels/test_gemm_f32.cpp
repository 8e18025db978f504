// The f32 GEMMs of prefill attention (kernels/gemm_f32.h): the reference, AVX2 and AVX-512
// kernels (each one the CPU runs; the others are skipped) against a float64 product on odd
// shapes (m, n, k in {1, 3, 17, 31, 129}: partial register tiles, partial column masks, k past
// the chunk size), both forms (A·B and A·Bᵀ), with strides wider than the rows, overwrite and
// accumulate, alpha ≠ 1, and k = 0; the padding between rows of C must stay untouched.
#include <QtTest>

#include "kernels/gemm_f32.h"
#include "kernels/kernel_table.h"

#include <cmath>
#include <random>
#include <vector>

using namespace folio;

namespace {

constexpr float kPad = 12345.0f; // C's padding between rows: must survive every call

struct Kernel {
    const char* name;
    GemmF32Fn fn;
};

std::vector<Kernel> kernels_here() {
    std::vector<Kernel> ks{{"reference", ref::gemm_f32}};
#if defined(__x86_64__) // the SIMD kernels are built for x86-64 only
    if (avx2_kernels_available())
        ks.push_back({"avx2", avx2::gemm_f32});
    if (avx512_vnni_kernels_available())
        ks.push_back({"avx512", avx512::gemm_f32});
#endif
    return ks;
}

std::vector<float> random_floats(size_t n, std::mt19937& rng) {
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v)
        x = nd(rng);
    return v;
}

// Runs `fn` on one shape and checks every element of C against float64, and C's padding.
void check(const Kernel& kern, int64_t m, int64_t n, int64_t k, bool bt, bool accumulate,
           float alpha, std::mt19937& rng) {
    const int64_t lda = k + 3, ldb = (bt ? k : n) + 5, ldc = n + 2;
    const std::vector<float> a = random_floats(static_cast<size_t>(m * lda), rng);
    const std::vector<float> b = random_floats(static_cast<size_t>((bt ? n : k) * ldb), rng);
    std::vector<float> c(static_cast<size_t>(m * ldc), kPad);
    const std::vector<float> c_init = random_floats(c.size(), rng);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
            c[i * ldc + j] = accumulate ? c_init[i * ldc + j] : std::nanf("");
    const std::vector<float> c0 = c;

    GemmF32 g;
    g.m = m;
    g.n = n;
    g.k = k;
    g.a = a.data();
    g.lda = lda;
    g.b = b.data();
    g.ldb = ldb;
    g.b_transposed = bt;
    g.c = c.data();
    g.ldc = ldc;
    g.alpha = alpha;
    g.accumulate = accumulate;
    kern.fn(g);

    for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < ldc; ++j) {
            const float got = c[i * ldc + j];
            if (j >= n) {
                if (got != kPad)
                    QFAIL(qPrintable(QStringLiteral("%1: padding (%2,%3) overwritten")
                                         .arg(kern.name)
                                         .arg(i)
                                         .arg(j)));
                continue;
            }
            double sum = 0.0, mag = 0.0;
            for (int64_t p = 0; p < k; ++p) {
                const double x = a[i * lda + p];
                const double y = bt ? b[j * ldb + p] : b[p * ldb + j];
                sum += x * y;
                mag += std::fabs(x * y);
            }
            const double old = accumulate ? c0[i * ldc + j] : 0.0;
            const double want = alpha * sum + old;
            // Float summation error bound: k·eps·Σ|a·b| (any order), plus the final rounding.
            const double tol = (k + 2) * 1.2e-7 * (std::fabs(alpha) * mag + std::fabs(old)) + 1e-30;
            if (!(std::fabs(got - want) <= tol))
                QFAIL(qPrintable(QStringLiteral("%1 m=%2 n=%3 k=%4 bt=%5 acc=%6: C(%7,%8) = %9, "
                                                "want %10 (tol %11)")
                                     .arg(kern.name)
                                     .arg(m)
                                     .arg(n)
                                     .arg(k)
                                     .arg(bt)
                                     .arg(accumulate)
                                     .arg(i)
                                     .arg(j)
                                     .arg(double(got))
                                     .arg(want)
                                     .arg(tol)));
        }
    }
}

} // namespace

class TestGemmF32 : public QObject {
    Q_OBJECT
private slots:
    void kernelChoice() {
        QVERIFY(gemm_f32_kernel(KernelPath::Reference) == &ref::gemm_f32);
#if defined(__x86_64__) // the SIMD kernels are built for x86-64 only
        if (avx512_vnni_kernels_available())
            QVERIFY(gemm_f32_kernel(KernelPath::Auto) == &avx512::gemm_f32);
        else if (avx2_kernels_available())
            QVERIFY(gemm_f32_kernel(KernelPath::Auto) == &avx2::gemm_f32);
        if (avx2_kernels_available())
            QVERIFY(gemm_f32_kernel(KernelPath::Avx2) == &avx2::gemm_f32);
#endif
    }

    void oddShapes() {
        const int64_t sizes[] = {1, 3, 17, 31, 129};
        std::mt19937 rng(24);
        for (const Kernel& kern : kernels_here())
            qInfo("testing %s", kern.name);
        for (const Kernel& kern : kernels_here())
            for (int64_t m : sizes)
                for (int64_t n : sizes)
                    for (int64_t k : sizes)
                        for (int form = 0; form < 4; ++form) {
                            check(kern, m, n, k, form & 1, form & 2, 1.0f, rng);
                            if (QTest::currentTestFailed())
                                return;
                        }
    }

    // Shapes of the callers: flash tiles (64 keys, dqk 288, dv 256, 128 rows) and KDA's C -= A·B.
    void callerShapes() {
        std::mt19937 rng(7);
        for (const Kernel& kern : kernels_here()) {
            check(kern, 128, 64, 288, true, false, 1.0f, rng);
            check(kern, 128, 256, 64, false, true, 1.0f, rng);
            check(kern, 64, 128, 128, false, true, -1.0f, rng);
            check(kern, 13, 40, 300, true, true, 0.5f, rng);
            if (QTest::currentTestFailed())
                return;
        }
    }

    void emptySum() {
        for (const Kernel& kern : kernels_here()) {
            std::vector<float> c = {1.0f, 2.0f, kPad, 3.0f, 4.0f, kPad};
            GemmF32 g;
            g.m = 2;
            g.n = 2;
            g.k = 0;
            g.c = c.data();
            g.ldc = 3;
            g.accumulate = true;
            kern.fn(g);
            QCOMPARE(c, (std::vector<float>{1.0f, 2.0f, kPad, 3.0f, 4.0f, kPad}));
            g.accumulate = false;
            kern.fn(g);
            QCOMPARE(c, (std::vector<float>{0.0f, 0.0f, kPad, 0.0f, 0.0f, kPad}));
        }
    }
};

QTEST_GUILESS_MAIN(TestGemmF32)
#include "test_gemm_f32.moc"
