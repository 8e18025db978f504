// Q1_0 and Q2_0 (ggml types 41 and 42, issue 48 item 17): the block layouts on hand-made
// blocks, the quantizers against llama-quantize's own files of conformance/quant-new (every
// block byte for byte from the F32 base of conformance/quant), the reference dots against float64
// and the AVX2 dots against the reference on odd shapes, through the registry and matmul.
#include <QtTest>

#include "support/test_support.h"

#include "gguf/gguf_file.h"
#include "kernels/kernel_table.h"
#include "kernels/matmul.h"
#include "kernels/reference/vec_dot_q1_q2_ref.h"
#include "kernels/weight_rows.h"
#include "kernels/weight_types.h"
#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_q1_q2.h"
#include "tensor/quant_rows.h"
#include "tensor/quantize.h"
#include "tensor/tensor_view.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace folio;

namespace {

struct TypeCase {
    DType type;
    int block;     // elements per block
    VecDotFn ref;  // reference dot
    VecDotFn avx2; // AVX2 dot or null
};

// The AVX2 dots through the registry (null where the build has none).
std::vector<TypeCase> cases() {
    return {{DType::Q1_0, kQK1_0, ref::dot_q1_0, find_weight_type(DType::Q1_0)->dot_avx2},
            {DType::Q2_0, kQK2_0, ref::dot_q2_0, find_weight_type(DType::Q2_0)->dot_avx2}};
}

// Random weight blocks: random bytes for the bits (Q2_0's unused code 3 included) and scales
// of either sign between 2^-8 and 2.
std::vector<uint8_t> random_blocks(std::mt19937& rng, int64_t n_blocks) {
    std::vector<uint8_t> w(static_cast<size_t>(n_blocks) * 18);
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_real_distribution<float> mag(-8.0f, 1.0f);
    for (int64_t b = 0; b < n_blocks; ++b) {
        uint8_t* p = w.data() + 18 * b;
        const float d = std::exp2(mag(rng)) * (byte(rng) & 1 ? -1.0f : 1.0f);
        const uint16_t h = fp32_to_fp16(d);
        std::memcpy(p, &h, 2);
        for (int i = 2; i < 18; ++i)
            p[i] = static_cast<uint8_t>(byte(rng));
    }
    return w;
}

// nx activation rows of k values as Q8_0, xs bytes apart (padded past the row's length); the
// first row holds the extremes ±127 in every block.
std::vector<uint8_t> random_activations(std::mt19937& rng, int64_t k, int nx, size_t xs) {
    std::vector<uint8_t> x(xs * static_cast<size_t>(nx), 0xAB);
    std::normal_distribution<float> g(0.0f, 1.0f);
    std::vector<float> v(static_cast<size_t>(k));
    for (int j = 0; j < nx; ++j) {
        for (float& f : v)
            f = g(rng);
        if (j == 0)
            for (int64_t i = 0; i < k; i += 32) {
                v[static_cast<size_t>(i)] = 8.0f;
                v[static_cast<size_t>(i + 1)] = -8.0f;
            }
        quantize_row_q8_0_act(v.data(), x.data() + j * xs, k);
    }
    return x;
}

} // namespace

class TestQ1Q2 : public QObject {
    Q_OBJECT
private slots:
    void geometryAndRegistry() {
        QCOMPARE(dtype_row_bytes(DType::Q1_0, 256), size_t(36));
        QCOMPARE(dtype_row_bytes(DType::Q2_0, 256), size_t(72));
        QCOMPARE(dtype_name(DType::Q1_0), std::string_view("q1_0"));
        QVERIFY(dtype_from_name("Q2_0") == DType::Q2_0);
        QVERIFY(dtype_traits(41u) && dtype_is_computable(DType::Q1_0));
        QVERIFY(dtype_traits(42u) && dtype_is_computable(DType::Q2_0));
        QVERIFY(find_weight_type(DType::Q1_0)->activations == DType::Q8_0);
        QVERIFY(find_weight_type(DType::Q2_0)->activations == DType::Q8_0);
    }

    // Bits least significant first; Q2_0 codes c → (c − 1)·d, two bits per element in order.
    void layoutOnHandMadeBlocks() {
        BlockQ1_0 q1{};
        q1.d = fp32_to_fp16(0.5f);
        q1.qs[0] = 0x05;  // elements 0 and 2
        q1.qs[15] = 0x80; // element 127
        float y1[kQK1_0];
        dequantize_row_q1_0(&q1, y1, kQK1_0);
        QCOMPARE(y1[0], 0.5f);
        QCOMPARE(y1[1], -0.5f);
        QCOMPARE(y1[2], 0.5f);
        QCOMPARE(y1[3], -0.5f);
        QCOMPARE(y1[126], -0.5f);
        QCOMPARE(y1[127], 0.5f);

        BlockQ2_0 q2{};
        q2.d = fp32_to_fp16(0.25f);
        q2.qs[0] = 2 | 0 << 2 | 1 << 4 | 3 << 6;
        q2.qs[15] = 0x40; // element 63: code 1
        for (int i = 1; i < 15; ++i)
            q2.qs[i] = 0x55; // code 1 everywhere: zeros
        float y2[kQK2_0];
        dequantize_row_q2_0(&q2, y2, kQK2_0);
        QCOMPARE(y2[0], 0.25f);
        QCOMPARE(y2[1], -0.25f);
        QCOMPARE(y2[2], 0.0f);
        QCOMPARE(y2[3], 0.5f);
        QCOMPARE(y2[4], 0.0f);
        QCOMPARE(y2[60], -0.25f); // code 0 in the low bits of qs[15]
        QCOMPARE(y2[63], 0.0f);

        // Quantizers: a block's mean magnitude and signs; Q2_0 rounds x / max|x|.
        float x[kQK1_0];
        for (int i = 0; i < kQK1_0; ++i)
            x[i] = (i % 3 == 0 ? -1.0f : 1.0f) * (1.0f + static_cast<float>(i % 4));
        BlockQ1_0 b1{};
        quantize_row_q1_0(x, &b1, kQK1_0);
        QCOMPARE(fp16_to_fp32(b1.d), 2.5f);
        QCOMPARE(int(b1.qs[0]), 0b10110110); // elements 0, 3, 6 negative
        BlockQ2_0 b2{};
        const float x2[kQK2_0] = {-4.0f, 1.9f, 2.1f, 4.0f};
        quantize_row_q2_0(x2, &b2, kQK2_0);
        QCOMPARE(fp16_to_fp32(b2.d), 4.0f);
        QCOMPARE(int(b2.qs[0]), 0 | 1 << 2 | 2 << 4 | 2 << 6);
        QCOMPARE(int(b2.qs[1]), 0x55);
    }

    // Every Q1_0 / Q2_0 block of llama-quantize's files, quantized again from the F32 base.
    void quantizersMatchLlamaQuantizeFiles() {
        FOLIO_REQUIRE_CONFORMANCE(root);
        const QString base = root + "/quant/models/qa-ds2-f32.gguf";
        const QStringList files = {root + "/quant-new/models/qa-ds2-q1_0.gguf",
                                   root + "/quant-new/models/qa-ds2-q2_0.gguf"};
        for (const QString& p : QStringList{base} + files)
            if (!QFile::exists(p)) {
                if (test::isCi())
                    QFAIL(qPrintable(p + " missing and CI=true"));
                QSKIP(qPrintable(p + " not found"));
            }
        auto f32 = gguf::File::open(base.toStdString());
        QVERIFY2(f32, f32 ? "" : f32.error().message.c_str());
        const int64_t expected_blocks[] = {18432, 35328}; // the README's files, by tensor sizes
        for (int fi = 0; fi < 2; ++fi) {
            auto q = gguf::File::open(files[fi].toStdString());
            QVERIFY2(q, q ? "" : q.error().message.c_str());
            const DType type = fi == 0 ? DType::Q1_0 : DType::Q2_0;
            const WeightType& wt = *find_weight_type(type);
            int64_t blocks = 0, mismatched = 0;
            for (const auto& t : (*q)->tensors()) {
                if (t.type != type)
                    continue;
                const auto* src = (*f32)->find_tensor(t.name);
                QVERIFY2(src && src->type == DType::F32, t.name.c_str());
                std::vector<uint8_t> out(t.size_bytes);
                wt.quantize(reinterpret_cast<const float*>(src->data), out.data(), t.n_elements());
                const int64_t n = t.n_elements() / (fi == 0 ? kQK1_0 : kQK2_0);
                for (int64_t b = 0; b < n; ++b)
                    mismatched += std::memcmp(out.data() + 18 * b, t.data + 18 * b, 18) != 0;
                blocks += n;
                std::vector<float> y(static_cast<size_t>(t.n_elements()));
                wt.dequantize(t.data, y.data(), t.n_elements());
                const auto* xf = reinterpret_cast<const float*>(src->data);
                // Q1_0 keeps every sign; Q2_0 is within half its scale of every value.
                for (int64_t i = 0; i < t.n_elements(); ++i) {
                    uint16_t h;
                    std::memcpy(&h, t.data + 18 * (i / (fi == 0 ? kQK1_0 : kQK2_0)), 2);
                    const float d = fp16_to_fp32(h);
                    if (type == DType::Q1_0 ? (y[i] >= 0) != (xf[i] >= 0) || std::fabs(y[i]) != d
                                            : std::fabs(y[i] - xf[i]) > 0.5f * d * 1.001f)
                        QFAIL(qPrintable(QString::fromStdString(t.name) + " element " +
                                         QString::number(i)));
                }
            }
            qInfo("%s: %lld blocks, %lld differ from llama-quantize's", dtype_name(type).data(),
                  static_cast<long long>(blocks), static_cast<long long>(mismatched));
            QCOMPARE(blocks, expected_blocks[fi]);
            QCOMPARE(mismatched, int64_t(0));
        }
    }

    // Reference dots against float64 over the dequantized weights and activations.
    void referenceDotsAgainstFloat64() {
        std::mt19937 rng(41);
        for (const TypeCase& c : cases())
            for (const int64_t k : {int64_t(c.block), int64_t(3 * c.block), int64_t(4608)}) {
                const auto w = random_blocks(rng, k / c.block);
                const size_t xs = q8_0_act_layout(k).row_bytes;
                const auto x = random_activations(rng, k, 3, xs);
                float out[3];
                c.ref(k, w.data(), x.data(), xs, 3, out, 1);
                std::vector<float> wf(static_cast<size_t>(k)), xf(static_cast<size_t>(k));
                find_weight_type(c.type)->dequantize(w.data(), wf.data(), k);
                for (int j = 0; j < 3; ++j) {
                    dequantize_row_q8_0(x.data() + j * xs, xf.data(), k);
                    double exact = 0, mag = 0;
                    for (int64_t i = 0; i < k; ++i) {
                        exact += double(wf[i]) * double(xf[i]);
                        mag += std::fabs(double(wf[i]) * double(xf[i]));
                    }
                    QVERIFY2(std::fabs(out[j] - exact) <= 1e-6 * mag + 1e-30,
                             qPrintable(QString("%1 k %2 row %3: %4 vs %5")
                                            .arg(dtype_name(c.type).data())
                                            .arg(k)
                                            .arg(j)
                                            .arg(out[j])
                                            .arg(exact)));
                }
            }
    }

    // AVX2 against the reference: 1..4 activation rows, padded row strides, a strided output,
    // lengths of 1, 3, 9 and 37 blocks.
    void avx2AgainstReferenceOnOddShapes() {
        if (!avx2_kernels_available() || cases()[0].avx2 == nullptr)
            QSKIP("no AVX2 kernels in this build or on this CPU");
        std::mt19937 rng(42);
        int checked = 0;
        for (const TypeCase& c : cases())
            for (const int blocks : {1, 3, 9, 37})
                for (int nx = 1; nx <= kMaxDotRows; ++nx) {
                    const int64_t k = int64_t(blocks) * c.block;
                    const size_t xs = q8_0_act_layout(k).row_bytes + 34 * 3;
                    const auto w = random_blocks(rng, blocks);
                    const auto x = random_activations(rng, k, nx, xs);
                    float ref[3 * kMaxDotRows], fast[3 * kMaxDotRows];
                    std::fill(std::begin(ref), std::end(ref), -1.0f);
                    std::fill(std::begin(fast), std::end(fast), -1.0f);
                    c.ref(k, w.data(), x.data(), xs, nx, ref, 3);
                    c.avx2(k, w.data(), x.data(), xs, nx, fast, 3);
                    // Same integer sums, another float order: within float rounding of
                    // Σ |w·x| (a wrong weight code moves a result by about Σ |w·x| / blocks).
                    std::vector<float> wf(static_cast<size_t>(k)), xf(static_cast<size_t>(k));
                    find_weight_type(c.type)->dequantize(w.data(), wf.data(), k);
                    for (int j = 0; j < 3 * kMaxDotRows; ++j) {
                        double mag = 0;
                        if (j % 3 == 0 && j / 3 < nx) {
                            dequantize_row_q8_0(x.data() + (j / 3) * xs, xf.data(), k);
                            for (int64_t i = 0; i < k; ++i)
                                mag += std::fabs(double(wf[i]) * xf[i]);
                        }
                        const double tol = 1e-5 * mag;
                        QVERIFY2(std::fabs(ref[j] - fast[j]) <= tol,
                                 qPrintable(QString("%1 k %2 nx %3 out %4: %5 vs %6")
                                                .arg(dtype_name(c.type).data())
                                                .arg(k)
                                                .arg(nx)
                                                .arg(j)
                                                .arg(ref[j])
                                                .arg(fast[j])));
                    }
                    for (int j = nx * 3; j < 3 * kMaxDotRows; ++j)
                        QCOMPARE(fast[j], -1.0f); // nothing written past the last row
                    ++checked;
                }
        QCOMPARE(checked, 2 * 4 * kMaxDotRows);
    }

    // matmul on both paths and 2 threads: 13 output rows × 7 tokens of real quantized weights.
    void matmulPathsAgree() {
        std::mt19937 rng(43);
        std::normal_distribution<float> g(0.0f, 1.0f);
        for (const TypeCase& c : cases()) {
            const int64_t k = 3 * kQK1_0, n = 13, t = 7;
            std::vector<float> wf(static_cast<size_t>(k * n)), x(static_cast<size_t>(k * t));
            for (float& v : wf)
                v = g(rng);
            for (float& v : x)
                v = g(rng);
            std::vector<uint8_t> w(dtype_row_bytes(c.type, k) * n);
            find_weight_type(c.type)->quantize(wf.data(), w.data(), k * n);
            const TensorView view = make_tensor_view(c.type, {k, n, 1, 1}, w.data());
            std::vector<float> y_ref(static_cast<size_t>(n * t)), y_fast(y_ref.size());
            QVERIFY(matmul({1, KernelPath::Reference}, view, x.data(), k, t, y_ref.data(), n));
            QVERIFY(matmul({2, KernelPath::Avx2}, view, x.data(), k, t, y_fast.data(), n));
            std::vector<float> wd(wf.size());
            find_weight_type(c.type)->dequantize(w.data(), wd.data(), k * n);
            for (int64_t tok = 0; tok < t; ++tok)
                for (int64_t r = 0; r < n; ++r) {
                    const float a = y_ref[tok * n + r], b = y_fast[tok * n + r];
                    QVERIFY(std::fabs(a - b) <= 2e-6f * (1.0f + std::fabs(a)));
                    // Within the Q8_0 activation rounding of the dequantized product.
                    double exact = 0, mag = 0;
                    for (int64_t i = 0; i < k; ++i) {
                        exact += double(wd[r * k + i]) * x[tok * k + i];
                        mag += std::fabs(double(wd[r * k + i]) * x[tok * k + i]);
                    }
                    QVERIFY(std::fabs(a - exact) <= 0.01 * mag);
                }
        }
    }
};

QTEST_APPLESS_MAIN(TestQ1Q2)
#include "test_q1_q2.moc"
