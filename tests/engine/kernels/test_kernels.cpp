// Every fast kernel against its scalar reference (both paths when the CPU has AVX2) on odd
// shapes, and against float64 formulas.
#include <QtTest>

#include "kernels/activations.h"
#include "kernels/get_rows.h"
#include "kernels/kernel_table.h"
#include "kernels/matmul.h"
#include "kernels/norm.h"
#include "kernels/rope.h"
#include "kernels/softmax.h"
#include "kernels/vec_dot_avx512.h"
#include "kernels/weight_types.h"
#include "support/random_data.h"
#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"
#include "tensor/quantize.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

using namespace folio;

namespace {

// A block's fp16 scale d for the float64 checks of the AVX-512 dots: tiny ones (1e-6 .. 5e-5,
// near fp16's subnormals) or 2^-8 .. 2^3 with a random mantissa.
uint16_t random_block_scale(std::mt19937& rng, bool tiny) {
    const float d = tiny ? 1e-6f * static_cast<float>(1 + rng() % 50)
                         : std::ldexp(1.0f + static_cast<float>(rng() % 100) / 100,
                                      static_cast<int>(rng() % 12) - 8);
    return fp32_to_fp16(d);
}

const KernelContext kRef{1, KernelPath::Reference};
const KernelContext kFast1{1, KernelPath::Avx2};
const KernelContext kFast2{2, KernelPath::Avx2};

using folio::test::random_normal;

struct Weight {
    std::vector<uint8_t> bytes;
    std::vector<float> deq; // dequantized, N rows of K
    TensorView view;
};

Weight make_weight(DType t, int64_t k, int64_t n, int64_t e, uint32_t seed) {
    Weight w;
    const auto x = random_normal(static_cast<size_t>(k * n * e), seed, 0.5f);
    const size_t rb = dtype_row_bytes(t, static_cast<uint64_t>(k));
    w.bytes.resize(rb * static_cast<size_t>(n * e));
    w.deq.resize(x.size());
    for (int64_t r = 0; r < n * e; ++r) {
        if (!quantize_row(t, x.data() + r * k, w.bytes.data() + r * rb, k) ||
            !dequantize_row(t, w.bytes.data() + r * rb, w.deq.data() + r * k, k))
            qFatal("quantize failed");
    }
    w.view = make_tensor_view(t, {k, n, e, 1}, w.bytes.data());
    return w;
}

std::vector<float> run_matmul(const KernelContext& ctx, const TensorView& w,
                              const std::vector<float>& x, int64_t t) {
    std::vector<float> y(static_cast<size_t>(w.ne[1] * t), std::nanf(""));
    auto st = matmul(ctx, w, x.data(), w.ne[0], t, y.data(), w.ne[1]);
    if (!st)
        qFatal("matmul: %s", st.error().message.c_str());
    return y;
}

bool have_avx2() {
    return avx2_kernels_available();
}

// One weight through the AVX-512 dot (KernelPath::Auto) and the AVX2 one: the same bits for
// 1, 2, 3, 4 and 7 activation rows (token counts below the GEMM's) on 1 and 2 threads; with
// near_reference, also within 1e-4 of the plain reference (an independent check of both).
void expect_auto_bits_equal_avx2(const Weight& w, int64_t k, bool near_reference, int& compared) {
    for (int64_t tok : {1, 2, 3, 4, 7}) {
        auto x = random_normal(static_cast<size_t>(k * tok), static_cast<uint32_t>(tok));
        const auto y_avx2 = run_matmul(kFast1, w.view, x, tok);
        const auto y_ref = run_matmul(kRef, w.view, x, tok);
        for (int threads : {1, 2}) {
            const auto y = run_matmul(KernelContext{threads, KernelPath::Auto}, w.view, x, tok);
            for (size_t i = 0; i < y.size(); ++i) {
                QVERIFY2(std::memcmp(&y[i], &y_avx2[i], sizeof(float)) == 0,
                         qPrintable(QString("k=%1 tokens=%2 at %3: %4 vs avx2 %5")
                                        .arg(k)
                                        .arg(tok)
                                        .arg(i)
                                        .arg(y[i], 0, 'g', 9)
                                        .arg(y_avx2[i], 0, 'g', 9)));
                if (near_reference)
                    QVERIFY(std::abs(y[i] - y_ref[i]) <= 1e-4f * (1.0f + std::abs(y_ref[i])));
                ++compared;
            }
        }
    }
}

// The several-rows dot (weight_dot_rows, KernelPath::Auto) on every other row of w (a stride of
// two rows), 1 .. kMaxDotRows rows per call, against the one-row dot of each row: the same bits.
void expect_rows_dot_bits_equal(const Weight& w, DType type, int64_t k, int64_t n, int& compared) {
    const WeightType& wt = *find_weight_type(type);
    QuantizedActivations xq;
    const auto x = random_normal(static_cast<size_t>(k), 99);
    QVERIFY(quantize_activations(kRef, type, x.data(), k, 1, k, &xq));
    const size_t rb = dtype_row_bytes(type, static_cast<uint64_t>(k));
    for (int nw = 1; nw <= kMaxDotRows && 2 * nw <= n; ++nw) {
        float got[kMaxDotRows], want = 0;
        weight_dot_rows(wt, KernelPath::Auto)(k, w.bytes.data(), 2 * rb, nw, xq.row(0), got);
        for (int r = 0; r < nw; ++r) {
            weight_dot(wt, KernelPath::Auto)(k, w.bytes.data() + 2 * r * rb, xq.row(0), 0, 1, &want,
                                             1);
            QVERIFY2(std::memcmp(&got[r], &want, sizeof(float)) == 0,
                     qPrintable(QString("%1 k=%2 nw=%3 row %4: %5 vs %6")
                                    .arg(QString::fromStdString(std::string(dtype_name(type))))
                                    .arg(k)
                                    .arg(nw)
                                    .arg(r)
                                    .arg(got[r], 0, 'g', 9)
                                    .arg(want, 0, 'g', 9)));
            ++compared;
        }
    }
}

} // namespace

class TestKernels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        qInfo("fast path: %s", kernel_table(KernelPath::Auto).name);
        QCOMPARE(QString(kernel_table(KernelPath::Reference).name), QString("reference"));
    }

    void matmulAgainstReferenceAndFloat64_data() {
        QTest::addColumn<int>("type");
        for (DType t : {DType::F32, DType::F16, DType::BF16, DType::Q8_0, DType::Q4_0, DType::MXFP4,
                        DType::Q4_K, DType::Q6_K})
            QTest::newRow(std::string(dtype_name(t)).c_str()) << int(t);
    }

    // Tolerances:
    //  * fast vs reference: the integer block sums are identical; only the order of the float
    //    accumulation differs (per block/super-block partial sums, 8 lanes + horizontal sum), so
    //    the difference is bounded by a few ulp of Σ|w·x|: we allow 1e-5·Σ|w_k·x_k| (K ≤ 800
    //    gives < 100 float additions per output, 100·2^-24 ≈ 6e-6).
    //  * vs float64 of dequantized weights × f32 activations: activation quantization rounds each
    //    x_k by at most half a step (amax_block/127/2, plus the fp16 rounding of d for Q8_0), so
    //    |error| ≤ Σ_k |w_k|·amax_block(k)/254·(1 + 2^-10) plus float rounding; F32/F16/BF16 use
    //    f32 activations and only get the float rounding term.
    void matmulAgainstReferenceAndFloat64() {
        QFETCH(int, type);
        const DType t = static_cast<DType>(type);
        const DType af = activation_format(t);
        const int64_t block = af == DType::Q8_K ? 256 : 32;
        // K: multiples of the block size that exercise the 4-block groups and their tails
        // (224 = 7 blocks, 800 = 25 blocks) and, for float weights, a length that is not a
        // multiple of the vector width.
        const std::vector<int64_t> ks = block == 256        ? std::vector<int64_t>{256, 768}
                                        : af == DType::Q8_0 ? std::vector<int64_t>{224, 800}
                                                            : std::vector<int64_t>{37, 800};
        for (int64_t k : ks) {
            for (int64_t n : {1, 3, 17, 67}) {
                Weight w = make_weight(t, k, n, 1, static_cast<uint32_t>(k * 131 + n));
                for (int64_t tok : {1, 2, 5, 33}) {
                    auto x =
                        random_normal(static_cast<size_t>(k * tok), static_cast<uint32_t>(tok));
                    auto y_ref = run_matmul(kRef, w.view, x, tok);
                    auto y_f1 = run_matmul(kFast1, w.view, x, tok);
                    auto y_f2 = run_matmul(kFast2, w.view, x, tok);
                    for (int64_t tt = 0; tt < tok; ++tt) {
                        for (int64_t r = 0; r < n; ++r) {
                            double exact = 0, abs_sum = 0, quant_bound = 0;
                            for (int64_t i = 0; i < k; ++i) {
                                const double wv = w.deq[r * k + i], xv = x[tt * k + i];
                                exact += wv * xv;
                                abs_sum += std::fabs(wv * xv);
                                if (af != DType::F32) {
                                    float amax = 0;
                                    const int64_t b0 = i / block * block;
                                    for (int64_t j = b0; j < b0 + block; ++j)
                                        amax = std::max(amax, std::fabs(x[tt * k + j]));
                                    quant_bound += std::fabs(wv) * amax / 254.0 * (1 + 1.0 / 1024);
                                }
                            }
                            const size_t idx = static_cast<size_t>(tt * n + r);
                            const double tol_fast = 1e-5 * abs_sum + 1e-6;
                            QVERIFY2(std::fabs(y_f1[idx] - y_ref[idx]) <= tol_fast,
                                     qPrintable(QString("k=%1 n=%2 t=%3 ref %4 fast %5")
                                                    .arg(k)
                                                    .arg(r)
                                                    .arg(tt)
                                                    .arg(y_ref[idx])
                                                    .arg(y_f1[idx])));
                            QCOMPARE(y_f2[idx], y_f1[idx]); // thread count never changes bits
                            const double tol64 = quant_bound + 1e-5 * abs_sum + 1e-6;
                            QVERIFY2(std::fabs(y_ref[idx] - exact) <= tol64,
                                     qPrintable(QString("k=%1 n=%2 t=%3 ref %4 exact %5 tol %6")
                                                    .arg(k)
                                                    .arg(r)
                                                    .arg(tt)
                                                    .arg(y_ref[idx])
                                                    .arg(exact)
                                                    .arg(tol64)));
                        }
                    }
                }
            }
        }
    }

    // The AVX-512 Q5_0 dots of short rows (below kQ5_0Blocks4MinK) against the AVX2 one, bit for
    // bit: odd and even block counts (the last block of an odd count takes the 256-bit step),
    // random nibbles and fifth bits; one token through the several-rows dot with 11, 19 and 30
    // rows (last groups of 3, 3 and 2), which is also called on every other row against the
    // one-row dot, for short and long rows (nibbleAvx512DotsMatchFloat64 checks the long ones'
    // values).
    void q5_0Avx512DotEqualsAvx2() {
        if (!avx512_vnni_kernels_available() || !have_avx2())
            QSKIP("this CPU has no AVX-512: that Q5_0 kernel is never used here");
        const WeightType& q5 = *find_weight_type(DType::Q5_0);
        QVERIFY(weight_dot(q5, KernelPath::Auto) != weight_dot(q5, KernelPath::Avx2));
        QVERIFY(weight_dot_rows(q5, KernelPath::Auto) != nullptr);
        int compared = 0, strided = 0;
        for (int64_t k : {32, 64, 96, 384, 416})
            for (int64_t n : {11, 19, 30}) {
                Weight w = make_weight(DType::Q5_0, k, n, 1, static_cast<uint32_t>(k + 3));
                std::mt19937 rng(static_cast<uint32_t>(k));
                auto* blocks = reinterpret_cast<BlockQ5_0*>(w.bytes.data());
                for (int64_t i = 0; i < n * k / 32; ++i) {
                    for (auto& b : blocks[i].qh)
                        b = static_cast<uint8_t>(rng());
                    for (auto& b : blocks[i].qs)
                        b = static_cast<uint8_t>(rng());
                }
                if (k < avx512::kQ5_0Blocks4MinK)
                    expect_auto_bits_equal_avx2(w, k, true, compared);
                if (QTest::currentTestFailed())
                    return;
                expect_rows_dot_bits_equal(w, DType::Q5_0, k, n, strided);
                if (QTest::currentTestFailed())
                    return;
            }
        QCOMPARE(compared, 3 * (11 + 19 + 30) * (1 + 2 + 3 + 4 + 7) * 2);
        QCOMPARE(strided, 5 * 3 * (1 + 2 + 3 + 4));
    }

    // IQ4_NL at its extreme values (-127 everywhere, or 113) against activations that quantize
    // to ±127: two blocks' int16 products would overflow if added before widening (the fast
    // kernel takes four blocks per step). K = 160: one 4-block step and a tail block.
    void iq4nlExtremeValuesMatchReference() {
        for (uint8_t nibbles : {uint8_t{0x00}, uint8_t{0xFF}, uint8_t{0xF0}})
            for (float sign : {1.0f, -1.0f}) {
                const int64_t k = 160;
                std::vector<BlockIQ4NL> w(k / 32);
                for (auto& b : w) {
                    b.d = 0x3C00; // 1.0
                    std::fill(std::begin(b.qs), std::end(b.qs), nibbles);
                }
                std::vector<float> x(k);
                for (int64_t i = 0; i < k; ++i)
                    x[i] = (i % 2 ? sign : 1.0f) * 3.0f;
                TensorView v = make_tensor_view(DType::IQ4_NL, {k, 1, 1, 1}, w.data());
                float y_ref = 0, y_fast = 0;
                QVERIFY(matmul(kRef, v, x.data(), k, 1, &y_ref, 1));
                QVERIFY(matmul(kFast1, v, x.data(), k, 1, &y_fast, 1));
                QVERIFY2(std::fabs(y_fast - y_ref) <= 1e-5f * (1.0f + std::fabs(y_ref)),
                         qPrintable(QString("nibbles %1 sign %2: ref %3 fast %4")
                                        .arg(nibbles)
                                        .arg(sign)
                                        .arg(y_ref)
                                        .arg(y_fast)));
            }
    }

    // Q3_K and IQ4_XS from random bytes (every 6-bit scale code, every hmask bit, every nibble)
    // against the reference dot: their fast kernels unpack the scales in registers. Within 1e-5
    // of Σ |w·x| (float order).
    void randomBytesKquantsMatchReference() {
        for (DType t : {DType::Q3_K, DType::IQ4_XS})
            for (int64_t k : {256, 768, 2816}) {
                const WeightType& wt = *find_weight_type(t);
                const int64_t n = 9;
                Weight w = make_weight(t, k, n, 1, static_cast<uint32_t>(k + 11));
                // Every byte but the fp16 d (Q3_K: the block's last 2 bytes, IQ4_XS: its first 2).
                const size_t block = t == DType::Q3_K ? sizeof(BlockQ3K) : sizeof(BlockIQ4XS);
                const size_t d_at = t == DType::Q3_K ? block - 2 : 0;
                std::mt19937 rng(static_cast<uint32_t>(k));
                for (size_t i = 0; i < w.bytes.size(); ++i)
                    if (i % block != d_at && i % block != d_at + 1)
                        w.bytes[i] = static_cast<uint8_t>(rng());
                std::vector<float> deq(static_cast<size_t>(k));
                for (int64_t tok : {1, 3}) {
                    const auto x = random_normal(static_cast<size_t>(k * tok), 17);
                    const auto y_ref = run_matmul(kRef, w.view, x, tok);
                    const auto y_fast = run_matmul(kFast1, w.view, x, tok);
                    for (int64_t r = 0; r < n; ++r) {
                        wt.dequantize(w.bytes.data() + r * w.view.nb[1], deq.data(), k);
                        for (int64_t tt = 0; tt < tok; ++tt) {
                            double abs_sum = 0;
                            for (int64_t i = 0; i < k; ++i)
                                abs_sum += std::fabs(deq[i] * x[tt * k + i]);
                            const size_t at = static_cast<size_t>(tt * n + r);
                            QVERIFY2(std::fabs(y_fast[at] - y_ref[at]) <= 1e-5 * abs_sum + 1e-6,
                                     qPrintable(QString("%1 k=%2 row %3 token %4: ref %5 fast %6")
                                                    .arg(QString::fromStdString(
                                                        std::string(dtype_name(t))))
                                                    .arg(k)
                                                    .arg(r)
                                                    .arg(tt)
                                                    .arg(y_ref[at])
                                                    .arg(y_fast[at])));
                        }
                    }
                }
            }
    }

    // The AVX-512 Q2_K, Q3_K and Q6_K dots against the AVX2 ones, bit for bit: K of 1, 3 and 11
    // super-blocks, weights from quantized normals and from random bytes (every scale and min
    // code, every hmask bit of Q3_K, every 4-bit Q2_K scale and min, every 6-bit value, negative
    // Q3_K / Q6_K scales); and the several-rows dots of those and of Q4_K and Q5_K (whose float
    // steps are their own: q8kAvx512DotsMatchFloat64) (1..4 rows of every other row) against the
    // one-row dot.
    void kquantAvx512DotsEqualAvx2() {
        if (!avx512_vnni_kernels_available() || !have_avx2())
            QSKIP("this CPU has no AVX-512: those k-quant kernels are never used here");
        int compared = 0, strided = 0;
        for (DType t : {DType::Q2_K, DType::Q3_K, DType::Q4_K, DType::Q5_K, DType::Q6_K}) {
            QVERIFY(weight_dot(*find_weight_type(t), KernelPath::Auto) !=
                    weight_dot(*find_weight_type(t), KernelPath::Avx2));
            for (int64_t k : {256, 768, 2816})
                for (bool random_bytes : {false, true}) {
                    const int64_t n = 13;
                    Weight w = make_weight(t, k, n, 1, static_cast<uint32_t>(k + 7));
                    if (random_bytes) {
                        // Every byte but the fp16 scales (d, dmin: the Q4_K and Q5_K blocks'
                        // first 4 bytes, the Q2_K block's last 4, the Q3_K and Q6_K blocks'
                        // last 2).
                        std::mt19937 rng(static_cast<uint32_t>(k));
                        const size_t block = t == DType::Q2_K   ? sizeof(BlockQ2K)
                                             : t == DType::Q3_K ? sizeof(BlockQ3K)
                                             : t == DType::Q4_K ? sizeof(BlockQ4K)
                                             : t == DType::Q5_K ? sizeof(BlockQ5K)
                                                                : sizeof(BlockQ6K);
                        const bool d_first = t == DType::Q4_K || t == DType::Q5_K;
                        const size_t skip_lo = d_first ? 4 : 0;
                        const size_t skip_hi = d_first ? 0 : t == DType::Q2_K ? 4 : 2;
                        for (size_t i = 0; i < w.bytes.size(); ++i) {
                            const size_t at = i % block;
                            if (at >= skip_lo && at < block - skip_hi)
                                w.bytes[i] = static_cast<uint8_t>(rng());
                        }
                    }
                    if (t != DType::Q4_K && t != DType::Q5_K)
                        expect_auto_bits_equal_avx2(w, k, false, compared);
                    if (QTest::currentTestFailed())
                        return;
                    expect_rows_dot_bits_equal(w, t, k, n, strided);
                    if (QTest::currentTestFailed())
                        return;
                }
        }
        QCOMPARE(compared, 3 * 3 * 2 * 13 * (1 + 2 + 3 + 4 + 7) * 2);
        QCOMPARE(strided, 5 * 3 * 2 * (1 + 2 + 3 + 4));
    }

    // The AVX-512 Q8_0 dot against the AVX2 one, bit for bit: rows of 1..3 blocks (no 4-block
    // step), 4, 5, 7, 8 and 67 blocks (steps and tails), weights of random bytes (every value,
    // -128 included) and quantized normals, 1..7 activation rows on 1 and 2 threads; and its
    // several-rows dot against the one-row dot.
    void q8_0Avx512DotEqualsAvx2() {
        if (!avx512_vnni_kernels_available() || !have_avx2())
            QSKIP("this CPU has no AVX-512: that Q8_0 kernel is never used here");
        const WeightType& q8 = *find_weight_type(DType::Q8_0);
        QVERIFY(weight_dot(q8, KernelPath::Auto) != weight_dot(q8, KernelPath::Avx2));
        QVERIFY(weight_dot_rows(q8, KernelPath::Auto) != nullptr);
        int compared = 0, strided = 0;
        for (int64_t blocks : {1, 2, 3, 4, 5, 7, 8, 67})
            for (bool random_bytes : {false, true}) {
                const int64_t k = 32 * blocks, n = 9;
                Weight w = make_weight(DType::Q8_0, k, n, 1, static_cast<uint32_t>(k + 11));
                if (random_bytes) {
                    std::mt19937 rng(static_cast<uint32_t>(k));
                    auto* b = reinterpret_cast<BlockQ8_0*>(w.bytes.data());
                    for (int64_t i = 0; i < n * blocks; ++i)
                        for (auto& q : b[i].qs)
                            q = static_cast<int8_t>(rng());
                    b[0].qs[0] = -128;
                }
                expect_auto_bits_equal_avx2(w, k, !random_bytes, compared);
                if (QTest::currentTestFailed())
                    return;
                expect_rows_dot_bits_equal(w, DType::Q8_0, k, n, strided);
                if (QTest::currentTestFailed())
                    return;
            }
        QCOMPARE(compared, 8 * 2 * 9 * (1 + 2 + 3 + 4 + 7) * 2);
        QCOMPARE(strided, 8 * 2 * (1 + 2 + 3 + 4));
    }

    // Few output rows, many tokens: the work is tiled over token blocks as well (matmul.cpp);
    // every tile must land in the right place whatever the thread count.
    void matmulManyTokensFewRows() {
        for (DType t : {DType::F32, DType::Q8_0, DType::MXFP4, DType::Q4_K}) {
            const int64_t k = 256, n = 3, tok = 130;
            Weight w = make_weight(t, k, n, 1, 5);
            auto x = random_normal(static_cast<size_t>(k * tok), 6);
            auto y_ref = run_matmul(kRef, w.view, x, tok);
            auto y1 = run_matmul(kFast1, w.view, x, tok);
            auto y2 = run_matmul(kFast2, w.view, x, tok);
            for (size_t i = 0; i < y_ref.size(); ++i) {
                QCOMPARE(y2[i], y1[i]);
                QVERIFY(std::fabs(y1[i] - y_ref[i]) <= 1e-4f * (1 + std::fabs(y_ref[i])));
            }
        }
    }

    // MXFP4 scales at the edges of E8M0 (subnormal 2^-128 / 2^-127, 2^-126, 1, 2^72): the AVX2
    // path's scale table must give the reference's bit patterns, so the results agree to float
    // rounding of the summation (1e-6 relative), including subnormal results.
    // The AVX-512 dots of MXFP4, Q4_0, IQ4_NL and Q5_0 (rows of 4 blocks or more; Q5_0's fifth
    // bits random) (KernelPath::Auto) keep their own float order,
    // so they are checked against the float64 sum of the dequantized weights times the
    // quantized activations: block counts that leave every tail (8-block steps, a 4-block step,
    // single blocks), random nibbles, scales of every size (MXFP4 exponents around 127 and the
    // subnormal e = 0, 1; fp16 d from tiny to large); 1..7 tokens, whose rows go through the
    // kernel 4, 3, 2 or 1 at a time and must give each token the one-token bits (the one-token
    // matmul takes the several-rows entry: 5 rows as 4 + 1).
    void nibbleAvx512DotsMatchFloat64() {
        QFETCH(int, type);
        const DType t = static_cast<DType>(type);
        if (!avx512_vnni_kernels_available())
            QSKIP("this CPU has no AVX-512: those kernels are never used here");
        const WeightType& wt = *find_weight_type(t);
        QVERIFY(weight_dot(wt, KernelPath::Auto) != weight_dot(wt, KernelPath::Avx2));
        const size_t block = dtype_row_bytes(t, 32);
        int compared = 0;
        for (int64_t blocks : {1, 3, 4, 5, 8, 9, 12, 13, 16, 25, 64}) {
            const int64_t k = 32 * blocks, n = 5;
            std::vector<uint8_t> wb(block * static_cast<size_t>(n * blocks));
            std::mt19937 rng(static_cast<uint32_t>(blocks));
            for (auto& byte : wb)
                byte = static_cast<uint8_t>(rng());
            for (size_t i = 0; i < wb.size() / block; ++i) {
                const bool tiny = static_cast<int64_t>(i) / blocks == 0; // row 0
                uint8_t* at = wb.data() + i * block;
                if (t == DType::MXFP4) {
                    at[0] = static_cast<uint8_t>(tiny ? rng() % 2 : 110 + rng() % 35);
                } else {
                    const uint16_t h = random_block_scale(rng, tiny);
                    std::memcpy(at, &h, 2);
                }
            }
            std::vector<float> deq(static_cast<size_t>(n * k));
            for (int64_t r = 0; r < n; ++r)
                QVERIFY(dequantize_row(t, wb.data() + r * blocks * block, deq.data() + r * k, k));
            const TensorView v = make_tensor_view(t, {k, n, 1, 1}, wb.data());
            const int64_t tokens = 7;
            const auto x = random_normal(static_cast<size_t>(k * tokens), 7u + blocks);
            QuantizedActivations xq;
            QVERIFY(quantize_activations(kRef, t, x.data(), k, tokens, k, &xq));
            std::vector<float> y(static_cast<size_t>(n * tokens)), y1(static_cast<size_t>(n));
            QVERIFY(matmul(KernelContext{1, KernelPath::Auto}, v, xq, y.data(), n));
            for (int64_t tt = 0; tt < tokens; ++tt) {
                const auto* xb = reinterpret_cast<const BlockQ8_0*>(xq.row(tt));
                QuantizedActivations one;
                QVERIFY(quantize_activations(kRef, t, x.data() + tt * k, k, 1, k, &one));
                QVERIFY(matmul(KernelContext{2, KernelPath::Auto}, v, one, y1.data(), n));
                for (int64_t r = 0; r < n; ++r) {
                    double exact = 0, magnitude = 0;
                    for (int64_t i = 0; i < k; ++i) {
                        const double p = double(deq[r * k + i]) * fp16_to_fp32(xb[i / 32].d) *
                                         xb[i / 32].qs[i % 32];
                        exact += p;
                        magnitude += std::fabs(p);
                    }
                    const float got = y[tt * n + r];
                    QVERIFY(magnitude > 0);
                    QVERIFY2(
                        std::fabs(got - exact) <= 1e-6 * magnitude,
                        qPrintable(QString("blocks=%1 token %2 row %3: %4 vs %5 (sum of |p| %6)")
                                       .arg(blocks)
                                       .arg(tt)
                                       .arg(r)
                                       .arg(got, 0, 'g', 9)
                                       .arg(exact, 0, 'g', 9)
                                       .arg(magnitude)));
                    QVERIFY2(
                        std::memcmp(&got, &y1[r], sizeof got) == 0,
                        qPrintable(QString("blocks=%1 token %2 row %3: %4 in a batch, %5 alone")
                                       .arg(blocks)
                                       .arg(tt)
                                       .arg(r)
                                       .arg(got, 0, 'g', 9)
                                       .arg(y1[r], 0, 'g', 9)));
                    ++compared;
                }
            }
        }
        QCOMPARE(compared, 11 * 5 * 7);
    }
    void nibbleAvx512DotsMatchFloat64_data() {
        QTest::addColumn<int>("type");
        for (DType t : {DType::MXFP4, DType::Q4_0, DType::IQ4_NL, DType::Q5_0})
            QTest::newRow(dtype_name(t).data()) << static_cast<int>(t);
    }

    // The AVX-512 dots of IQ4_XS (int32 sums scaled per sub-block, one FMA per super-block), Q4_K
    // and Q5_K (d and dmin of a super-block in one 512-bit FMA) keep their own float order:
    // against the float64 sum of the dequantized weights times the quantized Q8_K activations,
    // random nibbles, fifth bits and 6-bit scales and mins, fp16 d (and dmin) from tiny to large,
    // 1..7 super-blocks. The bound is relative to the sum of |products| of the scaled values and of
    // the mins apart (the kernels sum them apart). 7 tokens through the kernel 4 and 3 at a time
    // give each token its one-token bits.
    void q8kAvx512DotsMatchFloat64() {
        QFETCH(int, type);
        const DType t = static_cast<DType>(type);
        if (!avx512_vnni_kernels_available())
            QSKIP("this CPU has no AVX-512: that kernel is never used here");
        const WeightType& wt = *find_weight_type(t);
        QVERIFY(weight_dot(wt, KernelPath::Auto) != weight_dot(wt, KernelPath::Avx2));
        // Every block starts with its fp16 d; Q4_K and Q5_K follow it with dmin.
        const bool has_min = t != DType::IQ4_XS;
        const size_t block = dtype_row_bytes(t, 256);
        int compared = 0;
        for (int64_t blocks : {1, 2, 3, 7}) {
            const int64_t k = 256 * blocks, n = 5, tokens = 7;
            const size_t row_bytes = block * static_cast<size_t>(blocks);
            std::vector<uint8_t> wb(row_bytes * n);
            std::mt19937 rng(static_cast<uint32_t>(blocks + 40 + type));
            for (auto& byte : wb)
                byte = static_cast<uint8_t>(rng());
            // The same weights with dmin = 0 (the scaled values alone) and with d = 0 (the
            // mins alone), for the bound.
            std::vector<uint8_t> scaled = wb, mins = wb;
            for (size_t i = 0; i < wb.size() / block; ++i) {
                const bool tiny = static_cast<int64_t>(i) / blocks == 0; // row 0
                const uint16_t d = random_block_scale(rng, tiny), zero = 0;
                const uint16_t dmin = has_min ? random_block_scale(rng, tiny) : zero;
                std::memcpy(wb.data() + i * block, &d, 2);
                std::memcpy(scaled.data() + i * block, &d, 2);
                std::memcpy(mins.data() + i * block, &zero, 2);
                if (has_min) {
                    std::memcpy(wb.data() + i * block + 2, &dmin, 2);
                    std::memcpy(scaled.data() + i * block + 2, &zero, 2);
                    std::memcpy(mins.data() + i * block + 2, &dmin, 2);
                }
            }
            std::vector<float> deq(static_cast<size_t>(n * k)), deq_scaled(deq.size()),
                deq_mins(deq.size());
            for (int64_t r = 0; r < n; ++r) {
                QVERIFY(dequantize_row(t, wb.data() + r * row_bytes, deq.data() + r * k, k));
                QVERIFY(
                    dequantize_row(t, scaled.data() + r * row_bytes, deq_scaled.data() + r * k, k));
                QVERIFY(dequantize_row(t, mins.data() + r * row_bytes, deq_mins.data() + r * k, k));
            }
            const TensorView v = make_tensor_view(t, {k, n, 1, 1}, wb.data());
            const auto x = random_normal(static_cast<size_t>(k * tokens), 9u + blocks);
            QuantizedActivations xq;
            QVERIFY(quantize_activations(kRef, t, x.data(), k, tokens, k, &xq));
            std::vector<float> y(static_cast<size_t>(n * tokens)), y1(static_cast<size_t>(n));
            QVERIFY(matmul(KernelContext{1, KernelPath::Auto}, v, xq, y.data(), n));
            for (int64_t tt = 0; tt < tokens; ++tt) {
                const auto* xb = reinterpret_cast<const BlockQ8K*>(xq.row(tt));
                QuantizedActivations one;
                QVERIFY(quantize_activations(kRef, t, x.data() + tt * k, k, 1, k, &one));
                QVERIFY(matmul(KernelContext{2, KernelPath::Auto}, v, one, y1.data(), n));
                for (int64_t r = 0; r < n; ++r) {
                    double exact = 0, magnitude = 0;
                    for (int64_t i = 0; i < k; ++i) {
                        const double xi = double(xb[i / 256].d) * xb[i / 256].qs[i % 256];
                        exact += double(deq[r * k + i]) * xi;
                        magnitude += std::fabs(double(deq_scaled[r * k + i]) * xi) +
                                     std::fabs(double(deq_mins[r * k + i]) * xi);
                    }
                    const float got = y[tt * n + r];
                    QVERIFY(magnitude > 0);
                    QVERIFY2(std::fabs(got - exact) <= 1e-6 * magnitude,
                             qPrintable(QString("blocks=%1 token %2 row %3: %4 vs %5 (%6)")
                                            .arg(blocks)
                                            .arg(tt)
                                            .arg(r)
                                            .arg(got, 0, 'g', 9)
                                            .arg(exact, 0, 'g', 9)
                                            .arg(magnitude)));
                    QVERIFY(std::memcmp(&y1[r], &got, sizeof(float)) == 0);
                    ++compared;
                }
            }
        }
        QCOMPARE(compared, 4 * 5 * 7);
    }
    void q8kAvx512DotsMatchFloat64_data() {
        QTest::addColumn<int>("type");
        for (DType t : {DType::IQ4_XS, DType::Q4_K, DType::Q5_K})
            QTest::newRow(dtype_name(t).data()) << static_cast<int>(t);
    }

    void mxfp4ExtremeScales() {
        const int64_t k = 160; // 4-block groups plus one tail block
        std::vector<BlockMxfp4> w(k / 32);
        std::vector<float> x(k);
        for (int64_t i = 0; i < k; ++i)
            x[i] = 1.0f + static_cast<float>(i % 7);
        for (int e : {0, 1, 2, 127, 200}) {
            for (size_t b = 0; b < w.size(); ++b) {
                w[b].e = static_cast<uint8_t>(e);
                for (int j = 0; j < 16; ++j)
                    w[b].qs[j] = static_cast<uint8_t>((j + b) % 16 | (((j * 3 + b) % 16) << 4));
            }
            TensorView v = make_tensor_view(DType::MXFP4, {k, 1, 1, 1}, w.data());
            float y_ref = 0, y_fast = 0;
            QVERIFY(matmul(kRef, v, x.data(), k, 1, &y_ref, 1));
            QVERIFY(matmul(kFast1, v, x.data(), k, 1, &y_fast, 1));
            QVERIFY2(y_ref != 0 && std::fabs(y_fast - y_ref) <= 1e-6f * std::fabs(y_ref),
                     qPrintable(QString("e=%1 ref %2 fast %3").arg(e).arg(y_ref).arg(y_fast)));
        }
    }

    void activationQuantizersIdenticalOnBothPaths() {
        auto x = random_normal(1024, 5);
        x[3] = 0.0f;
        std::fill(x.begin() + 64, x.begin() + 96, 0.0f); // an all-zero block
        x[200] = 2.5f * 127.0f / 3.0f;
        for (DType w : {DType::Q8_0, DType::Q4_K}) {
            QuantizedActivations a, b;
            QVERIFY(quantize_activations(kRef, w, x.data(), 1024, 1, 1024, &a));
            QVERIFY(quantize_activations(kFast1, w, x.data(), 1024, 1, 1024, &b));
            QCOMPARE(a.storage.size(), b.storage.size());
            QVERIFY(a.storage == b.storage);
        }
    }

    void expertMatmulUsesTheSliceWithoutCopy() {
        for (DType t : {DType::Q8_0, DType::Q4_K, DType::MXFP4, DType::F32}) {
            const int64_t k = 256, n = 5, e_count = 3, tok = 4;
            Weight w = make_weight(t, k, n, e_count, 77);
            auto x = random_normal(static_cast<size_t>(k * tok), 8);
            for (int64_t e = 0; e < e_count; ++e) {
                std::vector<float> y(static_cast<size_t>(n * tok));
                QVERIFY(matmul_expert(kFast2, w.view, e, x.data(), k, tok, y.data(), n));
                // The same slice as a separate 2-D tensor.
                TensorView slice = make_tensor_view(t, {k, n, 1, 1},
                                                    w.bytes.data() + e * n * dtype_row_bytes(t, k));
                auto y2 = run_matmul(kFast2, slice, x, tok);
                for (size_t i = 0; i < y.size(); ++i)
                    QCOMPARE(y[i], y2[i]);
                // Gathered: tokens 3 and 1 only, scattered back into their rows.
                std::vector<float> g(static_cast<size_t>(n * tok), -1.0f);
                const int32_t ids[2] = {3, 1};
                QVERIFY(matmul_expert_gathered(kFast2, w.view, e, x.data(), k, tok, ids, 2,
                                               g.data(), n));
                for (int64_t r = 0; r < n; ++r) {
                    QCOMPARE(g[3 * n + r], y[3 * n + r]);
                    QCOMPARE(g[1 * n + r], y[1 * n + r]);
                    QCOMPARE(g[0 * n + r], -1.0f);
                    QCOMPARE(g[2 * n + r], -1.0f);
                }
            }
            std::vector<float> y(static_cast<size_t>(n * tok));
            const int32_t bad_ids[1] = {static_cast<int32_t>(tok)};
            QVERIFY(!matmul_expert_gathered(kRef, w.view, 0, x.data(), k, tok, bad_ids, 1, y.data(),
                                            n));
            auto bad = matmul_expert(kRef, w.view, e_count, x.data(), k, 1, y.data(), n);
            QVERIFY(!bad);
            QCOMPARE(bad.error().code, ErrorCode::InvalidArgument);
        }
    }

    // Decode's one-region forms against the per-matrix matmul: matmul_slices (every slice of a
    // 3-D weight with its own input row, outputs at a stride) and matmul_one_input (weights
    // sharing the input). The same bits as matmul_expert / matmul on the same path and thread
    // count (decode and the batch path must agree), and within float rounding of the plain
    // reference kernels (an independent check). Shapes on both sides of the one-thread limit,
    // row counts that split unevenly over the threads and over the 4-row kernels.
    void slicesAndSharedInputMatchMatmul() {
        const KernelContext fast2{2, KernelPath::Auto}, fast1{1, KernelPath::Auto};
        struct Shape {
            DType t;
            int64_t k, n, h;
        };
        const Shape shapes[] = {{DType::Q5_0, 64, 256, 16}, {DType::Q5_0, 384, 37, 3},
                                {DType::Q4_K, 256, 64, 16}, {DType::Q4_K, 2048, 45, 3},
                                {DType::Q8_0, 96, 7, 5},    {DType::Q8_0, 2048, 61, 2},
                                {DType::Q6_K, 512, 33, 4},  {DType::MXFP4, 160, 29, 3},
                                {DType::F32, 33, 19, 2},    {DType::IQ4_NL, 1024, 130, 2}};
        for (const Shape& sh : shapes) {
            Weight w = make_weight(sh.t, sh.k, sh.n, sh.h, 31);
            const int64_t x_stride = sh.k + 3, y_stride = sh.n + 5;
            const auto x = random_normal(static_cast<size_t>(x_stride * sh.h), 32);
            for (const KernelContext& ctx : {fast1, fast2}) {
                std::vector<float> y(static_cast<size_t>(y_stride * sh.h), -7.0f);
                QVERIFY(matmul_slices(ctx, w.view, x.data(), x_stride, y.data(), y_stride));
                for (int64_t h = 0; h < sh.h; ++h) {
                    std::vector<float> one(static_cast<size_t>(sh.n)), ref(one.size());
                    QVERIFY(matmul_expert(ctx, w.view, h, x.data() + h * x_stride, sh.k, 1,
                                          one.data(), sh.n));
                    QVERIFY(matmul_expert(kRef, w.view, h, x.data() + h * x_stride, sh.k, 1,
                                          ref.data(), sh.n));
                    for (int64_t r = 0; r < sh.n; ++r) {
                        const float got = y[h * y_stride + r];
                        QCOMPARE(got, one[r]);
                        double mag = 0; // Σ|w·x|: the scale of the rounding
                        for (int64_t i = 0; i < sh.k; ++i)
                            mag += std::fabs(double(w.deq[(h * sh.n + r) * sh.k + i]) *
                                             x[h * x_stride + i]);
                        QVERIFY2(std::fabs(got - ref[r]) <= 1e-4 * mag + 1e-6,
                                 qPrintable(
                                     QString("%1 slice %2 row %3: %4 vs %5")
                                         .arg(QString::fromStdString(std::string(dtype_name(sh.t))))
                                         .arg(h)
                                         .arg(r)
                                         .arg(got)
                                         .arg(ref[r])));
                    }
                    for (int64_t r = sh.n; r < y_stride && h + 1 < sh.h; ++r)
                        QCOMPARE(y[h * y_stride + r], -7.0f); // the gaps stay untouched
                }
                // The slices as separate weights taking one input (the first slice's row).
                std::vector<TensorView> ws;
                std::vector<std::vector<float>> outs(static_cast<size_t>(sh.h));
                std::vector<float*> ys;
                for (int64_t h = 0; h < sh.h; ++h) {
                    auto v = slice_matrix(w.view, h);
                    QVERIFY(v);
                    ws.push_back(*v);
                    outs[h].assign(static_cast<size_t>(sh.n), std::nanf(""));
                    ys.push_back(outs[h].data());
                }
                QVERIFY(matmul_one_input(ctx, ws, x.data(), ys));
                for (int64_t h = 0; h < sh.h; ++h) {
                    std::vector<float> one(static_cast<size_t>(sh.n));
                    QVERIFY(matmul(ctx, ws[h], x.data(), sh.k, 1, one.data(), sh.n));
                    for (int64_t r = 0; r < sh.n; ++r)
                        QCOMPARE(outs[h][r], one[r]);
                }
            }
        }
        // Weights of different types (KDA's q, k, v, f_a, g_a, beta in one file: Q8_0 with F32,
        // or k-quants next to Q8_0): each gets its own conversion of the input, the same
        // numbers as matmul; weights of different K are refused.
        {
            const DType types[] = {DType::Q8_0, DType::Q4_K, DType::F32, DType::Q6_K, DType::Q8_0};
            const int64_t k = 512;
            std::vector<Weight> mixed;
            std::vector<TensorView> ws;
            std::vector<std::vector<float>> outs;
            std::vector<float*> ys;
            for (size_t i = 0; i < std::size(types); ++i) {
                mixed.push_back(make_weight(types[i], k, 9 + 4 * i, 1, 40 + i));
                outs.emplace_back(static_cast<size_t>(9 + 4 * i), std::nanf(""));
            }
            for (size_t i = 0; i < mixed.size(); ++i) {
                ws.push_back(mixed[i].view);
                ys.push_back(outs[i].data());
            }
            const auto x = random_normal(static_cast<size_t>(k), 41);
            for (const KernelContext& ctx : {fast1, fast2}) {
                QVERIFY(matmul_one_input(ctx, ws, x.data(), ys));
                for (size_t i = 0; i < ws.size(); ++i) {
                    std::vector<float> one(outs[i].size());
                    QVERIFY(matmul(ctx, ws[i], x.data(), k, 1, one.data(), ws[i].ne[1]));
                    for (size_t r = 0; r < one.size(); ++r)
                        QCOMPARE(outs[i][r], one[r]);
                }
            }
        }
        Weight a = make_weight(DType::Q4_K, 256, 4, 1, 1),
               b = make_weight(DType::Q4_K, 512, 4, 1, 2);
        std::vector<float> x(512, 1.0f), ya(4), yb(4);
        const TensorView ws[] = {a.view, b.view};
        float* const ys[] = {ya.data(), yb.data()};
        auto st = matmul_one_input(kFast2, ws, x.data(), ys);
        QVERIFY(!st);
        QCOMPARE(st.error().code, ErrorCode::InvalidArgument);
        // matmul_slices writes y_stride apart: a stride below N is refused.
        Weight c = make_weight(DType::Q8_0, 64, 8, 2, 3);
        std::vector<float> xc(128), yc(16);
        QVERIFY(!matmul_slices(kFast2, c.view, xc.data(), 64, yc.data(), 7));
    }

    void matmulRejectsBadShapes() {
        Weight w = make_weight(DType::Q4_K, 256, 2, 2, 1);
        std::vector<float> x(256), y(4);
        QVERIFY(!matmul(kRef, w.view, x.data(), 256, 1, y.data(), 2)); // 3-D weight
        std::vector<uint8_t> bytes(1000);
        TensorView q8k =
            make_tensor_view(DType::Q8_K, {256, 2, 1, 1}, bytes.data()); // activations only
        auto st = matmul(kRef, q8k, x.data(), 256, 1, y.data(), 2);
        QVERIFY(!st);
        QCOMPARE(st.error().code, ErrorCode::Unsupported);
    }

    void getRows() {
        for (DType t : {DType::F32, DType::BF16, DType::Q6_K, DType::MXFP4}) {
            Weight w = make_weight(t, 256, 7, 1, 9);
            const int32_t ids[3] = {6, 0, 6};
            std::vector<float> out(3 * 256);
            QVERIFY(get_rows(kFast2, w.view, ids, 3, out.data(), 256));
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 256; ++j)
                    QCOMPARE(out[i * 256 + j], w.deq[ids[i] * 256 + j]);
            const int32_t bad_ids[2] = {1, 7};
            auto st = get_rows(kRef, w.view, bad_ids, 2, out.data(), 256);
            QVERIFY(!st);
            QCOMPARE(st.error().code, ErrorCode::InvalidArgument);
            const int32_t neg[1] = {-1};
            QVERIFY(!get_rows(kRef, w.view, neg, 1, out.data(), 256));
        }
    }

    // RMSNorm / L2 norm vs double; fast vs reference. Both accumulate the squares in double and
    // scale in f32, so they differ by at most an ulp or two of each output: 2e-6 relative.
    void norms() {
        for (int64_t n : {1, 7, 8, 64, 129, 7168}) {
            auto x = random_normal(static_cast<size_t>(n * 3), static_cast<uint32_t>(n), 3.0f);
            auto w = random_normal(static_cast<size_t>(n), 2);
            std::vector<float> yr(x.size()), yf(x.size()), lr(x.size()), lf(x.size());
            rms_norm(kRef, x.data(), w.data(), yr.data(), n, 3, n, n, 1e-6f);
            rms_norm(kFast2, x.data(), w.data(), yf.data(), n, 3, n, n, 1e-6f);
            l2_norm(kRef, x.data(), lr.data(), n, 3, n, n, 1e-12f);
            l2_norm(kFast2, x.data(), lf.data(), n, 3, n, n, 1e-12f);
            for (int64_t r = 0; r < 3; ++r) {
                double ss = 0;
                for (int64_t i = 0; i < n; ++i)
                    ss += double(x[r * n + i]) * x[r * n + i];
                const double rms = std::sqrt(ss / n + 1e-6), l2 = std::sqrt(ss);
                for (int64_t i = 0; i < n; ++i) {
                    const size_t j = static_cast<size_t>(r * n + i);
                    const double e = x[j] / rms * w[i], el = x[j] / l2;
                    QVERIFY(std::fabs(yr[j] - e) <= 2e-6 * std::fabs(e) + 1e-7);
                    QVERIFY(std::fabs(yf[j] - yr[j]) <= 2e-6 * std::fabs(yr[j]) + 1e-7);
                    QVERIFY(std::fabs(lr[j] - el) <= 2e-6 * std::fabs(el) + 1e-9);
                    QVERIFY(std::fabs(lf[j] - lr[j]) <= 2e-6 * std::fabs(lr[j]) + 1e-9);
                }
            }
        }
    }

    // Softmax vs double. The fast exp is accurate to ~2 ulp; the sums are in double: 1e-6
    // relative per output (+1e-9 absolute for the tiny ones).
    void softmaxRows() {
        for (int64_t n : {1, 5, 8, 33, 1000}) {
            const int64_t rows = 4;
            auto x = random_normal(static_cast<size_t>(n * rows), static_cast<uint32_t>(n), 4.0f);
            std::vector<float> mask(static_cast<size_t>(n * rows));
            fill_causal_mask(mask.data(), rows, n, n - rows); // last rows see all keys
            auto xr = x, xf = x;
            const float scale = 0.125f;
            softmax(kRef, xr.data(), n, rows, n, scale, mask.data(), n);
            softmax(kFast2, xf.data(), n, rows, n, scale, mask.data(), n);
            for (int64_t r = 0; r < rows; ++r) {
                double mx = -1e300, sum = 0;
                for (int64_t i = 0; i < n; ++i)
                    if (std::isfinite(mask[r * n + i]))
                        mx = std::max(mx, double(x[r * n + i]) * scale);
                for (int64_t i = 0; i < n; ++i)
                    if (std::isfinite(mask[r * n + i]))
                        sum += std::exp(double(x[r * n + i]) * scale - mx);
                for (int64_t i = 0; i < n; ++i) {
                    const size_t j = static_cast<size_t>(r * n + i);
                    const double e =
                        std::isfinite(mask[j]) ? std::exp(double(x[j]) * scale - mx) / sum : 0.0;
                    QVERIFY2(std::fabs(xr[j] - e) <= 1e-6 * e + 1e-9,
                             qPrintable(QString("%1 vs %2").arg(xr[j]).arg(e)));
                    QVERIFY2(std::fabs(xf[j] - e) <= 1e-6 * e + 1e-9,
                             qPrintable(QString("%1 vs %2").arg(xf[j]).arg(e)));
                }
            }
        }
        // A fully masked row gives zeros, not NaN.
        std::vector<float> v(9, 1.0f), m(9, -std::numeric_limits<float>::infinity());
        softmax(kFast1, v.data(), 9, 1, 9, 1.0f, m.data(), 0);
        for (float f : v)
            QCOMPARE(f, 0.0f);
        float mk[6];
        fill_causal_mask(mk, 2, 3, 1);
        QCOMPARE(mk[0], 0.0f);
        QCOMPARE(mk[1], 0.0f);
        QVERIFY(std::isinf(mk[2]));
        QCOMPARE(mk[5], 0.0f);
    }

    // Activations vs double. Tolerances: reference uses libm (≤ 1 ulp) -> 1e-6 relative; the
    // fast exp/tanh/erf approximations are within ~3e-7 relative (erf: 1.2e-7 absolute from the
    // Chebyshev fit) -> 2e-6 relative plus 1e-6 absolute near the zeros of the functions.
    void activations() {
        const int64_t n = 4099;
        auto x = random_normal(n, 4, 4.0f);
        x[0] = 0;
        x[1] = -30;
        x[2] = 30;
        x[3] = -100;
        x[4] = 100;
        auto u = random_normal(n, 5);
        auto check = [&](const char* name, auto fn, auto exact) {
            std::vector<float> yr(n), yf(n);
            fn(kRef, yr.data());
            fn(kFast2, yf.data());
            for (int64_t i = 0; i < n; ++i) {
                const double e = exact(i);
                QVERIFY2(
                    std::fabs(yr[i] - e) <= 1e-6 * std::fabs(e) + 1e-7,
                    qPrintable(
                        QString("%1 ref x=%2 %3 vs %4").arg(name).arg(x[i]).arg(yr[i]).arg(e)));
                QVERIFY2(
                    std::fabs(yf[i] - e) <= 2e-6 * std::fabs(e) + 1e-6,
                    qPrintable(
                        QString("%1 fast x=%2 %3 vs %4").arg(name).arg(x[i]).arg(yf[i]).arg(e)));
            }
        };
        auto sig = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
        check(
            "silu", [&](const KernelContext& c, float* y) { silu(c, x.data(), y, n); },
            [&](int64_t i) { return x[i] * sig(x[i]); });
        check(
            "swiglu",
            [&](const KernelContext& c, float* y) { swiglu(c, x.data(), u.data(), y, n); },
            [&](int64_t i) { return x[i] * sig(x[i]) * u[i]; });
        check(
            "gelu_tanh", [&](const KernelContext& c, float* y) { gelu_tanh(c, x.data(), y, n); },
            [&](int64_t i) {
                const double v = x[i];
                return 0.5 * v *
                       (1 +
                        std::tanh(std::sqrt(2 / std::numbers::pi) * (v + 0.044715 * v * v * v)));
            });
        check(
            "gelu_erf", [&](const KernelContext& c, float* y) { gelu_erf(c, x.data(), y, n); },
            [&](int64_t i) { return 0.5 * x[i] * (1 + std::erf(x[i] / std::sqrt(2.0))); });
    }

    void yarnRamp() {
        // GGUF_LAYOUT.md §3.3 / MODEL_SPEC.md §11.2: Kimi-K2 (base 5e4, d 64, L0 4096) with
        // llama.cpp's β_f = 32, β_s = 1 -> low 8, high 20; DeepSeek-V3 (base 1e4) -> 10, 23.
        RopeParams p;
        p.n_dims = 64;
        p.freq_base = 50000.0f;
        p.n_ctx_orig = 4096;
        float dims[2];
        rope_yarn_corr_dims(p, dims);
        QCOMPARE(dims[0], 8.0f);
        QCOMPARE(dims[1], 20.0f);
        p.freq_base = 10000.0f;
        rope_yarn_corr_dims(p, dims);
        QCOMPARE(dims[0], 10.0f);
        QCOMPARE(dims[1], 23.0f);
        QCOMPARE(rope_yarn_ramp(8, 20, 0), 1.0f);
        QCOMPARE(rope_yarn_ramp(8, 20, 8), 1.0f);
        QCOMPARE(rope_yarn_ramp(8, 20, 14), 0.5f);
        QCOMPARE(rope_yarn_ramp(8, 20, 17), 0.25f);
        QCOMPARE(rope_yarn_ramp(8, 20, 20), 0.0f);
        QCOMPARE(rope_yarn_ramp(8, 20, 31), 0.0f);
        QCOMPARE(rope_yarn_ramp(19, 19, 19), 1.0f);
        QCOMPARE(rope_yarn_ramp(19, 19, 20), 0.0f); // max(0.001, high - low)
    }

    void yarnFrequenciesMatchSpecTable() {
        // MODEL_SPEC.md §11.2, Kimi-K2 (s = 32) with llama.cpp's β_f = 32: at position 1 the
        // angle of pair i is inv_freq[i]. attn_factor cancels the 1 + 0.1·ln s magnitude.
        RopeParams p;
        p.n_dims = 64;
        p.freq_base = 50000.0f;
        p.freq_scale = 1.0f / 32;
        p.ext_factor = 1.0f;
        p.n_ctx_orig = 4096;
        p.attn_factor = 1.0f / (1.0f + 0.1f * std::log(32.0f));
        std::vector<float> cs(64);
        rope_cos_sin(p, 1.0f, cs.data());
        const std::pair<int, double> expect[] = {{0, 1.0},
                                                 {1, 7.131110849e-01},
                                                 {8, 6.687403050e-02},
                                                 {10, 2.851651970e-02},
                                                 {15, 2.727363708e-03},
                                                 {19, 1.816033230e-04},
                                                 {20, 3.614046774e-05},
                                                 {31, 8.764412912e-07}};
        for (auto [i, f] : expect) {
            const double theta = std::atan2(cs[2 * i + 1], cs[2 * i]);
            QVERIFY2(std::fabs(theta - f) <= 2e-6 * f,
                     qPrintable(QString("i=%1 %2 vs %3").arg(i).arg(theta, 0, 'g', 10).arg(f)));
            QVERIFY(std::fabs(std::hypot(cs[2 * i], cs[2 * i + 1]) - 1.0) < 1e-6);
        }
    }

    // NORM vs NEOX vs a double formula. θ_i is built by repeated fp32 multiplication (as
    // llama.cpp): relative error ≤ ~(i + 2)·2^-24, i.e. an angle error ≤ p·θ·(i+2)·6e-8; with
    // |x| ≤ ~4 and p ≤ 300 we allow 4·p·(i+2)·1.2e-7 + 1e-5.
    void ropeLayouts() {
        const int64_t head_dim = 80, n_dims = 64, n_heads = 3, n_tokens = 5;
        const int32_t pos[n_tokens] = {0, 1, 7, 100, 300};
        auto x = random_normal(static_cast<size_t>(head_dim * n_heads * n_tokens), 12);
        for (RopeLayout layout : {RopeLayout::Norm, RopeLayout::Neox}) {
            RopeParams p;
            p.n_dims = n_dims;
            p.layout = layout;
            p.freq_base = 10000.0f;
            for (const KernelContext* ctx : {&kRef, &kFast2}) {
                auto y = x;
                QVERIFY(rope(*ctx, p, y.data(), head_dim, n_heads, n_tokens, head_dim,
                             head_dim * n_heads, pos));
                for (int64_t t = 0; t < n_tokens; ++t) {
                    for (int64_t h = 0; h < n_heads; ++h) {
                        const float* in = x.data() + (t * n_heads + h) * head_dim;
                        const float* out = y.data() + (t * n_heads + h) * head_dim;
                        for (int64_t i = 0; i < n_dims / 2; ++i) {
                            const double th = pos[t] * std::pow(10000.0, -2.0 * i / n_dims);
                            const int64_t a = layout == RopeLayout::Norm ? 2 * i : i;
                            const int64_t b =
                                layout == RopeLayout::Norm ? 2 * i + 1 : i + n_dims / 2;
                            const double e0 = in[a] * std::cos(th) - in[b] * std::sin(th);
                            const double e1 = in[a] * std::sin(th) + in[b] * std::cos(th);
                            const double tol = 4 * pos[t] * (i + 2) * 1.2e-7 + 1e-5;
                            QVERIFY(std::fabs(out[a] - e0) <= tol);
                            QVERIFY(std::fabs(out[b] - e1) <= tol);
                        }
                        for (int64_t i = n_dims; i < head_dim; ++i) // pass-through tail
                            QCOMPARE(out[i], in[i]);
                    }
                }
            }
        }
        // NEOX on the de-interleaved vector equals NORM on the interleaved one (MODEL_SPEC §1.4).
        std::vector<float> inter(n_dims), split(n_dims);
        auto v = random_normal(n_dims, 3);
        for (int64_t i = 0; i < n_dims / 2; ++i) {
            inter[2 * i] = v[2 * i];
            inter[2 * i + 1] = v[2 * i + 1];
            split[i] = v[2 * i];
            split[i + n_dims / 2] = v[2 * i + 1];
        }
        RopeParams p;
        p.n_dims = n_dims;
        const int32_t p7 = 7;
        QVERIFY(rope(kFast1, p, inter.data(), n_dims, 1, 1, n_dims, n_dims, &p7));
        p.layout = RopeLayout::Neox;
        QVERIFY(rope(kFast1, p, split.data(), n_dims, 1, 1, n_dims, n_dims, &p7));
        for (int64_t i = 0; i < n_dims / 2; ++i) {
            QVERIFY(std::fabs(inter[2 * i] - split[i]) <= 1e-6f);
            QVERIFY(std::fabs(inter[2 * i + 1] - split[i + n_dims / 2]) <= 1e-6f);
        }
        p.n_dims = 63;
        QVERIFY(!rope(kRef, p, inter.data(), n_dims, 1, 1, n_dims, n_dims, &p7));
    }

    void avx2PathIsUsedWhenAvailable() {
        if (!have_avx2())
            QSKIP("CPU without AVX2+FMA+F16C: only the reference path runs");
        QCOMPARE(QString(kernel_table(KernelPath::Avx2).name), QString("avx2"));
        QCOMPARE(QString(kernel_table(KernelPath::Auto).name), QString("avx2"));
    }
};

QTEST_APPLESS_MAIN(TestKernels)
#include "test_kernels.moc"
