// Q4_1, Q5_0, Q5_1, IQ4_NL, Q2_K, Q3_K, Q5_K and IQ4_XS: dequantizers against blocks packed by
// hand from the layout description (ggml-common.h), the Q8_1 activation quantizer, reference
// quantizers by round-trip error and byte-for-byte against llama-quantize's files, and the fast
// dot kernels against the reference ones and against float64 on odd shapes.
#include <QtTest>

#include "support/quant_rows.h"
#include "support/random_data.h"
#include "support/test_support.h"

#include "gguf/gguf_file.h"
#include "kernels/matmul.h"
#include "kernels/weight_rows.h"
#include "kernels/weight_types.h"
#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"
#include "tensor/quantize.h"
#include "tensor/tensor_view.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace folio;

using folio::test::dequant;
using folio::test::quant;
using folio::test::random_normal;

namespace {

const KernelContext kRef{1, KernelPath::Reference};
const KernelContext kFast1{1, KernelPath::Avx2};
const KernelContext kFast2{2, KernelPath::Avx2};

const DType kNewTypes[] = {DType::Q4_1, DType::Q5_0, DType::Q5_1, DType::IQ4_NL,
                           DType::Q2_K, DType::Q3_K, DType::Q5_K, DType::IQ4_XS};

// Packs 256 2-bit values the Q2_K / Q3_K way: element 128c + 32s + l sits in bits 2s of
// qs[32c + l].
void pack2(const int* q, uint8_t* qs) {
    for (int i = 0; i < 256; ++i) {
        const int c = i / 128, s = (i % 128) / 32, l = i % 32;
        qs[32 * c + l] = static_cast<uint8_t>(qs[32 * c + l] | ((q[i] & 3) << (2 * s)));
    }
}

} // namespace

class TestQuantMore : public QObject {
    Q_OBJECT
private slots:
    void registryRowsPresent() {
        for (DType t : kNewTypes) {
            const WeightType* w = find_weight_type(t);
            QVERIFY2(w && w->dequantize && w->quantize && w->dot_ref,
                     std::string(dtype_name(t)).c_str());
            QVERIFY(dtype_is_computable(t));
        }
        // Activation formats: ggml-cpu's vec_dot_type of each weight type.
        QCOMPARE(activation_format(DType::Q4_1), DType::Q8_1);
        QCOMPARE(activation_format(DType::Q5_1), DType::Q8_1);
        QCOMPARE(activation_format(DType::Q5_0), DType::Q8_0);
        QCOMPARE(activation_format(DType::IQ4_NL), DType::Q8_0);
        for (DType t : {DType::Q2_K, DType::Q3_K, DType::Q5_K, DType::IQ4_XS})
            QCOMPARE(activation_format(t), DType::Q8_K);
    }

    void dequantQ4_1() {
        BlockQ4_1 b{};
        b.d = fp32_to_fp16(0.5f);
        b.m = fp32_to_fp16(-1.0f);
        for (int j = 0; j < 16; ++j)
            b.qs[j] = static_cast<uint8_t>(j | ((15 - j) << 4));
        auto y = dequant(DType::Q4_1, &b, 32);
        QCOMPARE(y[0], -1.0f);
        QCOMPARE(y[3], 0.5f);
        QCOMPARE(y[16], 6.5f); // high nibble 15
        for (int j = 0; j < 16; ++j) {
            QCOMPARE(y[j], j * 0.5f - 1.0f);
            QCOMPARE(y[j + 16], (15 - j) * 0.5f - 1.0f);
        }
    }

    void dequantQ5_0AndQ5_1() {
        // qh = 0xF00F00A5 little-endian: element j takes bit j as its fifth bit.
        const uint32_t qh = 0xF00F00A5u;
        BlockQ5_0 a{};
        BlockQ5_1 b{};
        a.d = b.d = fp32_to_fp16(0.25f);
        b.m = fp32_to_fp16(2.0f);
        std::memcpy(a.qh, &qh, 4);
        std::memcpy(b.qh, &qh, 4);
        for (int j = 0; j < 16; ++j)
            a.qs[j] = b.qs[j] = static_cast<uint8_t>((j * 3 % 16) | ((j * 5 % 16) << 4));
        auto y0 = dequant(DType::Q5_0, &a, 32);
        auto y1 = dequant(DType::Q5_1, &b, 32);
        // Element 0: nibble 0, bit 0 set -> 16; element 1: nibble 3, bit 1 clear -> 3.
        QCOMPARE(y0[0], 0.0f);
        QCOMPARE(y0[1], (3 - 16) * 0.25f);
        QCOMPARE(y1[0], 16 * 0.25f + 2.0f);
        for (int i = 0; i < 32; ++i) {
            const int nib = i < 16 ? (i * 3 % 16) : ((i - 16) * 5 % 16);
            const int q = nib | ((qh >> i) & 1) << 4;
            QCOMPARE(y0[i], (q - 16) * 0.25f);
            QCOMPARE(y1[i], q * 0.25f + 2.0f);
        }
    }

    void dequantIq4Nl() {
        BlockIQ4NL b{};
        b.d = fp32_to_fp16(0.5f);
        for (int j = 0; j < 16; ++j)
            b.qs[j] = static_cast<uint8_t>(j | ((15 - j) << 4));
        auto y = dequant(DType::IQ4_NL, &b, 32);
        QCOMPARE(y[0], -63.5f);  // -127 · 0.5
        QCOMPARE(y[8], 0.5f);    // 1 · 0.5
        QCOMPARE(y[16], 56.5f);  // 113 · 0.5
        QCOMPARE(y[31], -63.5f); // high nibble 0
        QCOMPARE(y[5], -17.5f);  // -35 · 0.5
    }

    void dequantIq4Xs() {
        BlockIQ4XS b{};
        b.d = fp32_to_fp16(0.125f);
        const int ls[8] = {0, 63, 32, 33, 31, 40, 17, 48}; // 6-bit codes, value ls - 32
        for (int ib = 0; ib < 8; ++ib) {
            b.scales_l[ib / 2] =
                static_cast<uint8_t>(b.scales_l[ib / 2] | (ls[ib] & 0xF) << (4 * (ib % 2)));
            b.scales_h = static_cast<uint16_t>(b.scales_h | (ls[ib] >> 4) << (2 * ib));
        }
        for (int i = 0; i < 128; ++i)
            b.qs[i] = static_cast<uint8_t>((i % 16) | (((i * 7) % 16) << 4));
        auto y = dequant(DType::IQ4_XS, &b, 256);
        for (int i = 0; i < 256; ++i) {
            const int ib = i / 32, l = i % 32;
            const uint8_t byte = b.qs[16 * ib + l % 16];
            const int nib = l < 16 ? byte & 0xF : byte >> 4;
            QCOMPARE(y[i], 0.125f * static_cast<float>(ls[ib] - 32) * kIq4nlValues[nib]);
        }
        QCOMPARE(y[0], 0.125f * -32 * -127); // sub-block 0: scale code 0
        QCOMPARE(y[32], 0.125f * 31 * -127); // sub-block 1: code 63, nibble 0
    }

    void dequantQ2K() {
        int q[256];
        for (int i = 0; i < 256; ++i)
            q[i] = (i * 7 + i / 16) % 4;
        BlockQ2K b{};
        b.d = fp32_to_fp16(0.5f);
        b.dmin = fp32_to_fp16(0.25f);
        for (int s = 0; s < 16; ++s)
            b.scales[s] = static_cast<uint8_t>((s % 16) | (((s * 5) % 16) << 4));
        pack2(q, b.qs);
        auto y = dequant(DType::Q2_K, &b, 256);
        for (int i = 0; i < 256; ++i) {
            const int s = i / 16;
            QCOMPARE(y[i], 0.5f * (s % 16) * q[i] - 0.25f * ((s * 5) % 16));
        }
    }

    void dequantQ3K() {
        int q[256]; // signed -4..3
        for (int i = 0; i < 256; ++i)
            q[i] = (i * 5 + i / 32) % 8 - 4;
        const int sc[16] = {0, 1, 63, 31, 32, 33, 2, 62, 16, 47, 5, 50, 20, 40, 60, 10};
        BlockQ3K b{};
        b.d = fp32_to_fp16(0.5f);
        // 6-bit codes: low 4 bits of code s in scales[s % 8] (low nibble for s < 8, high for
        // s >= 8), high 2 bits in scales[8 + s % 4] at bit 2·(s / 4).
        for (int s = 0; s < 16; ++s) {
            b.scales[s % 8] =
                static_cast<uint8_t>(b.scales[s % 8] | (sc[s] & 0xF) << (s < 8 ? 0 : 4));
            b.scales[8 + s % 4] =
                static_cast<uint8_t>(b.scales[8 + s % 4] | (sc[s] >> 4) << (2 * (s / 4)));
        }
        // Value q + 4 in 0..7: 2 low bits in qs, the high bit in hmask[i % 32] bit i / 32.
        int low[256];
        for (int i = 0; i < 256; ++i) {
            low[i] = (q[i] + 4) & 3;
            if (q[i] + 4 > 3)
                b.hmask[i % 32] = static_cast<uint8_t>(b.hmask[i % 32] | 1 << (i / 32));
        }
        pack2(low, b.qs);
        auto y = dequant(DType::Q3_K, &b, 256);
        for (int i = 0; i < 256; ++i)
            QCOMPARE(y[i], 0.5f * static_cast<float>(sc[i / 16] - 32) * q[i]);
    }

    void dequantQ5K() {
        const int sc[8] = {1, 2, 3, 4, 60, 17, 33, 63};
        const int mn[8] = {5, 6, 7, 8, 50, 18, 47, 32};
        BlockQ5K b{};
        b.d = fp32_to_fp16(0.5f);
        b.dmin = fp32_to_fp16(0.25f);
        for (int j = 0; j < 4; ++j) {
            b.scales[j] = static_cast<uint8_t>(sc[j] | ((sc[j + 4] >> 4) << 6));
            b.scales[j + 4] = static_cast<uint8_t>(mn[j] | ((mn[j + 4] >> 4) << 6));
            b.scales[j + 8] = static_cast<uint8_t>((sc[j + 4] & 0xF) | ((mn[j + 4] & 0xF) << 4));
        }
        // Element 64c + 32h + l: low 4 bits in qs[32c + l] (low nibble h = 0, high h = 1), fifth
        // bit in qh[l] at bit 2c + h.
        int q[256];
        for (int i = 0; i < 256; ++i)
            q[i] = (i * 11 + i / 32) % 32;
        for (int i = 0; i < 256; ++i) {
            const int c = i / 64, h = (i % 64) / 32, l = i % 32;
            b.qs[32 * c + l] = static_cast<uint8_t>(b.qs[32 * c + l] | (q[i] & 0xF) << (4 * h));
            b.qh[l] = static_cast<uint8_t>(b.qh[l] | (q[i] >> 4) << (2 * c + h));
        }
        auto y = dequant(DType::Q5_K, &b, 256);
        for (int i = 0; i < 256; ++i)
            QCOMPARE(y[i], 0.5f * sc[i / 32] * q[i] - 0.25f * mn[i / 32]);
    }

    // Q8_1 as ggml-cpu's AVX2 quantize_row_q8_1: the Q8_0 activation rule for d and qs, and
    // s = fp16(d·Σqs) with the fp32 d (not its fp16 rounding).
    void q8_1ActivationQuantizer() {
        std::vector<float> x(64);
        for (int i = 0; i < 64; ++i)
            x[i] = static_cast<float>(i % 32) * (i < 32 ? 0.1f : -0.37f) + 0.05f;
        std::vector<BlockQ8_1> b(2);
        quantize_row_q8_1_act(x.data(), b.data(), 64);
        for (int blk = 0; blk < 2; ++blk) {
            float amax = 0;
            for (int i = 0; i < 32; ++i)
                amax = std::max(amax, std::fabs(x[32 * blk + i]));
            const float d = amax / 127.0f;
            QCOMPARE(b[blk].d, fp32_to_fp16(d));
            int sum = 0;
            for (int i = 0; i < 32; ++i) {
                QCOMPARE(int(b[blk].qs[i]), int(std::nearbyint(x[32 * blk + i] * (127.0f / amax))));
                sum += b[blk].qs[i];
            }
            QCOMPARE(b[blk].s, fp32_to_fp16(d * static_cast<float>(sum)));
        }
        // Block 0: x = 3.15 at i = 31 is the maximum, quantized to 127.
        QCOMPARE(int(b[0].qs[31]), 127);
    }

    void quantizeDequantizeErrorBounds_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<double>("maxRelRms");
        // Relative RMS error on N(0,1) data, measured with about 1.3x margin: Q5_K ~0.03 ,
        // Q5_0 / Q5_1 ~0.05, Q4_1 ~0.09, IQ4_NL / IQ4_XS ~0.09, Q3_K ~0.17, Q2_K ~0.3.
        QTest::newRow("q5_k") << int(DType::Q5_K) << 0.045;
        QTest::newRow("q5_0") << int(DType::Q5_0) << 0.07;
        QTest::newRow("q5_1") << int(DType::Q5_1) << 0.07;
        QTest::newRow("q4_1") << int(DType::Q4_1) << 0.13;
        QTest::newRow("iq4_nl") << int(DType::IQ4_NL) << 0.12;
        QTest::newRow("iq4_xs") << int(DType::IQ4_XS) << 0.12;
        QTest::newRow("q3_k") << int(DType::Q3_K) << 0.22;
        QTest::newRow("q2_k") << int(DType::Q2_K) << 0.4;
    }

    void quantizeDequantizeErrorBounds() {
        QFETCH(int, type);
        QFETCH(double, maxRelRms);
        const DType t = static_cast<DType>(type);
        auto x = random_normal(8192, 11);
        auto q = quant(t, x);
        auto y = dequant(t, q.data(), static_cast<int64_t>(x.size()));
        double err = 0, ref = 0;
        for (size_t i = 0; i < x.size(); ++i) {
            err += (double(y[i]) - x[i]) * (double(y[i]) - x[i]);
            ref += double(x[i]) * x[i];
        }
        const double rel = std::sqrt(err / ref);
        qInfo("%s: relative RMS error %.3g", std::string(dtype_name(t)).c_str(), rel);
        QVERIFY2(rel < maxRelRms, qPrintable(QString("relative RMS error %1").arg(rel)));
        // All zeros come back as zeros, without NaN.
        std::vector<float> z(512, 0.0f);
        for (float v : dequant(t, quant(t, z).data(), 512))
            QCOMPARE(v, 0.0f);
    }

    // The reference quantizers against llama-quantize (no importance matrix for these types):
    // every tensor of a new type in the qa-ds2 conformance files, re-quantized here from the F32
    // base, must be byte-identical.
    void llamaQuantizeBytesMatch() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const QString models = dir + "/quant/models/";
        if (!QFile::exists(models + "qa-ds2-f32.gguf")) {
            if (folio::test::isCi())
                QFAIL("quant conformance models missing and CI=true");
            QSKIP("quant conformance models not found");
        }
        auto f32 = gguf::File::open((models + "qa-ds2-f32.gguf").toStdString());
        QVERIFY(f32);
        int compared = 0, rows_total = 0;
        for (const char* name : {"q4_1", "q5_0", "q5_1", "q2_k", "q3_k_m", "q5_k_m"}) {
            auto q = gguf::File::open((models + "qa-ds2-" + name + ".gguf").toStdString());
            QVERIFY2(q, name);
            for (const gguf::TensorInfo& t : (*q)->tensors()) {
                bool is_new = false;
                for (DType n : kNewTypes)
                    is_new = is_new || t.type == n;
                if (!is_new)
                    continue;
                const gguf::TensorInfo* src = (*f32)->find_tensor(t.name);
                QVERIFY2(src && src->type == DType::F32 && src->ne == t.ne, t.name.c_str());
                const int64_t k = t.ne[0], rows = t.n_elements() / k;
                const size_t rb = dtype_row_bytes(t.type, static_cast<uint64_t>(k));
                std::vector<uint8_t> mine(rb);
                for (int64_t r = 0; r < rows; ++r) {
                    QVERIFY(quantize_row(t.type, reinterpret_cast<const float*>(src->data) + r * k,
                                         mine.data(), k));
                    QVERIFY2(std::memcmp(mine.data(), t.data + r * rb, rb) == 0,
                             qPrintable(QString("%1 %2 (%3) row %4")
                                            .arg(name)
                                            .arg(t.name.c_str())
                                            .arg(std::string(dtype_name(t.type)).c_str())
                                            .arg(r)));
                }
                rows_total += static_cast<int>(rows);
                ++compared;
            }
        }
        qInfo("%d tensors (%d rows) byte-identical to llama-quantize", compared, rows_total);
        QVERIFY(compared > 20);
    }

    // Fast vs reference (identical integer sums: only float summation order differs) and
    // reference vs float64 of the dequantized weights (activation rounding bound, as
    // test_kernels), on row counts that are not multiples of 4, K of one to several blocks and
    // nx = 1..4 activation rows per call.
    void matmulAgainstReferenceAndFloat64_data() {
        QTest::addColumn<int>("type");
        for (DType t : kNewTypes)
            QTest::newRow(std::string(dtype_name(t)).c_str()) << int(t);
    }

    void matmulAgainstReferenceAndFloat64() {
        QFETCH(int, type);
        const DType t = static_cast<DType>(type);
        const int64_t block = activation_format(t) == DType::Q8_K ? 256 : 32;
        for (int64_t k : {block, 3 * block, 7 * block}) {
            for (int64_t n : {1, 3, 5, 18}) {
                const auto wf =
                    random_normal(static_cast<size_t>(k * n), static_cast<uint32_t>(k + n), 0.5f);
                const size_t rb = dtype_row_bytes(t, static_cast<uint64_t>(k));
                std::vector<uint8_t> wq(rb * static_cast<size_t>(n));
                std::vector<float> deq(wf.size());
                for (int64_t r = 0; r < n; ++r) {
                    QVERIFY(quantize_row(t, wf.data() + r * k, wq.data() + r * rb, k));
                    QVERIFY(dequantize_row(t, wq.data() + r * rb, deq.data() + r * k, k));
                }
                const TensorView w = make_tensor_view(t, {k, n, 1, 1}, wq.data());
                for (int64_t tok : {1, 2, 3, 4, 7}) {
                    auto x =
                        random_normal(static_cast<size_t>(k * tok), static_cast<uint32_t>(tok * 7));
                    std::vector<float> y_ref(static_cast<size_t>(n * tok)), y1(y_ref.size()),
                        y2(y_ref.size());
                    QVERIFY(matmul(kRef, w, x.data(), k, tok, y_ref.data(), n));
                    QVERIFY(matmul(kFast1, w, x.data(), k, tok, y1.data(), n));
                    QVERIFY(matmul(kFast2, w, x.data(), k, tok, y2.data(), n));
                    for (int64_t tt = 0; tt < tok; ++tt)
                        for (int64_t r = 0; r < n; ++r) {
                            double exact = 0, abs_sum = 0, quant_bound = 0;
                            for (int64_t i = 0; i < k; ++i) {
                                const double wv = deq[r * k + i], xv = x[tt * k + i];
                                exact += wv * xv;
                                abs_sum += std::fabs(wv * xv);
                                float amax = 0;
                                const int64_t b0 = i / block * block;
                                for (int64_t j = b0; j < b0 + block; ++j)
                                    amax = std::max(amax, std::fabs(x[tt * k + j]));
                                quant_bound += std::fabs(wv) * amax / 254.0 * (1 + 1.0 / 1024);
                            }
                            const size_t idx = static_cast<size_t>(tt * n + r);
                            QVERIFY2(std::fabs(y1[idx] - y_ref[idx]) <= 1e-5 * abs_sum + 1e-6,
                                     qPrintable(QString("k=%1 row %2 tok %3: ref %4 fast %5")
                                                    .arg(k)
                                                    .arg(r)
                                                    .arg(tt)
                                                    .arg(y_ref[idx])
                                                    .arg(y1[idx])));
                            QCOMPARE(y2[idx], y1[idx]);
                            QVERIFY2(std::fabs(y_ref[idx] - exact) <=
                                         quant_bound + 1e-5 * abs_sum + 1e-6,
                                     qPrintable(QString("k=%1 row %2 tok %3: ref %4 exact %5")
                                                    .arg(k)
                                                    .arg(r)
                                                    .arg(tt)
                                                    .arg(y_ref[idx])
                                                    .arg(exact)));
                        }
                }
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestQuantMore)
#include "test_quant_more.moc"
