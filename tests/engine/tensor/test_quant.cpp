// Block formats, fp16/bf16 conversions and quantizers against values derived by hand from
// ggml's block layouts and reference quantizers (ggml/src/ggml-quants.c).
#include <QtTest>

#include "support/quant_rows.h"
#include "support/random_data.h"
#include "support/test_support.h"

#include "gguf/gguf_file.h"
#include "kernels/weight_rows.h"
#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quantize.h"
#include "tensor/tensor_view.h"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace folio;

using folio::test::dequant;
using folio::test::quant;
using folio::test::random_normal;

namespace {

float bits(uint32_t u) {
    return f32_from_bits(u);
}

} // namespace

class TestQuant : public QObject {
    Q_OBJECT
private slots:
    void fp16EdgeValues() {
        QCOMPARE(fp32_to_fp16(0.0f), uint16_t(0x0000));
        QCOMPARE(fp32_to_fp16(-0.0f), uint16_t(0x8000));
        QCOMPARE(fp32_to_fp16(1.0f), uint16_t(0x3C00));
        QCOMPARE(fp32_to_fp16(-2.0f), uint16_t(0xC000));
        QCOMPARE(fp32_to_fp16(65504.0f), uint16_t(0x7BFF));   // max finite
        QCOMPARE(fp32_to_fp16(65519.996f), uint16_t(0x7BFF)); // just below the tie
        QCOMPARE(fp32_to_fp16(65520.0f), uint16_t(0x7C00));   // tie -> even = inf
        QCOMPARE(fp32_to_fp16(1e10f), uint16_t(0x7C00));      // overflow -> inf
        QCOMPARE(fp32_to_fp16(-std::numeric_limits<float>::infinity()), uint16_t(0xFC00));
        QCOMPARE(fp32_to_fp16(std::numeric_limits<float>::quiet_NaN()), uint16_t(0x7E00));
        QCOMPARE(fp32_to_fp16(bits(0xFF800001u)), uint16_t(0x7E00)); // any NaN -> 0x7E00
        // Subnormals: unit 2^-24.
        QCOMPARE(fp32_to_fp16(std::ldexp(1.0f, -24)), uint16_t(0x0001));
        QCOMPARE(fp32_to_fp16(std::ldexp(1.0f, -25)), uint16_t(0x0000));    // tie -> even 0
        QCOMPARE(fp32_to_fp16(std::ldexp(1.5f, -25)), uint16_t(0x0001));    // above the tie
        QCOMPARE(fp32_to_fp16(std::ldexp(3.0f, -25)), uint16_t(0x0002));    // 1.5 units -> 2
        QCOMPARE(fp32_to_fp16(std::ldexp(5.0f, -25)), uint16_t(0x0002));    // 2.5 units -> 2
        QCOMPARE(fp32_to_fp16(std::ldexp(1023.0f, -24)), uint16_t(0x03FF)); // largest subnormal
        QCOMPARE(fp32_to_fp16(std::ldexp(1023.5f, -24)), uint16_t(0x0400)); // rounds to normal
        QCOMPARE(fp32_to_fp16(std::ldexp(1.0f, -14)), uint16_t(0x0400));    // smallest normal
        QCOMPARE(fp32_to_fp16(-std::ldexp(1.0f, -30)), uint16_t(0x8000));
        // Normal ties: 1 + 2^-11 is halfway between 0x3C00 and 0x3C01 -> even.
        QCOMPARE(fp32_to_fp16(1.0f + std::ldexp(1.0f, -11)), uint16_t(0x3C00));
        QCOMPARE(fp32_to_fp16(1.0f + 3 * std::ldexp(1.0f, -11)), uint16_t(0x3C02));
        QCOMPARE(fp32_to_fp16(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)),
                 uint16_t(0x3C01));
        // fp16 -> fp32
        QCOMPARE(fp16_to_fp32(0x0001), std::ldexp(1.0f, -24));
        QCOMPARE(fp16_to_fp32(0x03FF), std::ldexp(1023.0f, -24));
        QCOMPARE(fp16_to_fp32(0x0400), std::ldexp(1.0f, -14));
        QCOMPARE(fp16_to_fp32(0x7BFF), 65504.0f);
        QVERIFY(std::isinf(fp16_to_fp32(0x7C00)) && fp16_to_fp32(0x7C00) > 0);
        QVERIFY(std::isinf(fp16_to_fp32(0xFC00)) && fp16_to_fp32(0xFC00) < 0);
        QVERIFY(std::isnan(fp16_to_fp32(0x7E00)));
        QCOMPARE(f32_bits(fp16_to_fp32(0x8000)), 0x80000000u);
        // Every non-NaN fp16 survives the round trip.
        for (uint32_t h = 0; h < 0x10000; ++h) {
            if ((h & 0x7C00) == 0x7C00 && (h & 0x3FF))
                continue;
            QCOMPARE(fp32_to_fp16(fp16_to_fp32(static_cast<uint16_t>(h))), uint16_t(h));
        }
    }

    void bf16EdgeValues() {
        QCOMPARE(fp32_to_bf16(1.0f), uint16_t(0x3F80));
        QCOMPARE(fp32_to_bf16(bits(0x3F808000u)), uint16_t(0x3F80)); // tie -> even
        QCOMPARE(fp32_to_bf16(bits(0x3F818000u)), uint16_t(0x3F82)); // tie -> even (up)
        QCOMPARE(fp32_to_bf16(bits(0x3F808001u)), uint16_t(0x3F81));
        QCOMPARE(fp32_to_bf16(bits(0x7F7FFFFFu)), uint16_t(0x7F80)); // max float -> inf
        QCOMPARE(fp32_to_bf16(bits(0x00010000u)), uint16_t(0x0001)); // subnormal kept
        QCOMPARE(fp32_to_bf16(bits(0x7F800001u)), uint16_t(0x7FC0)); // sNaN -> quiet
        QCOMPARE(fp32_to_bf16(bits(0xFFC12345u)), uint16_t(0xFFC1));
        QCOMPARE(fp32_to_bf16(-std::numeric_limits<float>::infinity()), uint16_t(0xFF80));
        QCOMPARE(f32_bits(bf16_to_fp32(0x3F80)), 0x3F800000u);
        QCOMPARE(f32_bits(bf16_to_fp32(0x8001)), 0x80010000u);
    }

    void dequantQ8_0() {
        BlockQ8_0 b{};
        b.d = fp32_to_fp16(0.5f);
        for (int j = 0; j < 32; ++j)
            b.qs[j] = static_cast<int8_t>(j * 8 - 128);
        auto y = dequant(DType::Q8_0, &b, 32);
        for (int j = 0; j < 32; ++j)
            QCOMPARE(y[j], (j * 8 - 128) * 0.5f);
    }

    void dequantQ4_0() {
        BlockQ4_0 b{};
        b.d = fp32_to_fp16(2.0f);
        for (int j = 0; j < 16; ++j)
            b.qs[j] = static_cast<uint8_t>(j | ((15 - j) << 4));
        auto y = dequant(DType::Q4_0, &b, 32);
        for (int j = 0; j < 16; ++j) {
            QCOMPARE(y[j], (j - 8) * 2.0f);           // low nibbles: elements 0..15
            QCOMPARE(y[j + 16], (15 - j - 8) * 2.0f); // high nibbles: elements 16..31
        }
    }

    void dequantMxfp4ScaleAndNibbleOrder() {
        // E2M1 code 2 = 1.0: the element value is exactly the E8M0 scale 2^(e-127).
        for (int e : {0, 1, 2, 100, 127, 128, 254, 255}) {
            BlockMxfp4 b{};
            b.e = static_cast<uint8_t>(e);
            for (int j = 0; j < 16; ++j)
                b.qs[j] = 0x22;
            auto y = dequant(DType::MXFP4, &b, 32);
            const float expect = std::ldexp(1.0f, e - 127);
            for (int j = 0; j < 32; ++j)
                QCOMPARE(y[j], expect);
        }
        QCOMPARE(f32_bits(e8m0_to_fp32_half(0)), 0x00200000u); // 2^-128, subnormal
        QCOMPARE(f32_bits(e8m0_to_fp32_half(1)), 0x00400000u); // 2^-127, subnormal
        QCOMPARE(f32_bits(e8m0_to_fp32_half(2)), 0x00800000u); // 2^-126
        QCOMPARE(e8m0_to_fp32_half(127), 0.5f);
        QCOMPARE(e8m0_to_fp32_half(254), std::ldexp(1.0f, 126));
        // Low nibble = first 16 elements, high nibble = last 16 (not interleaved).
        BlockMxfp4 b{};
        b.e = 127;
        const float e2m1[16] = {0, .5f, 1, 1.5f, 2, 3, 4, 6, -0.f, -.5f, -1, -1.5f, -2, -3, -4, -6};
        for (int j = 0; j < 16; ++j)
            b.qs[j] = static_cast<uint8_t>(j | ((15 - j) << 4));
        auto y = dequant(DType::MXFP4, &b, 32);
        for (int j = 0; j < 16; ++j) {
            QCOMPARE(y[j], e2m1[j]);
            QCOMPARE(y[j + 16], e2m1[15 - j]);
        }
    }

    // A hand-made MXFP4 block: exact bytes and values.
    void mxfp4SpecBlock() {
        const std::vector<float> x = {0,    .1f,   -.2f,  .3f,   .75f, -.75f, 1.75f, 3.5f,
                                      5,    6,     7.9f,  -7.9f, 1,    -1,    2,     -2.5f,
                                      .25f, .5f,   1.25f, 1.5f,  3,    4,     -4,    -6,
                                      .01f, -.01f, 2.9f,  3.1f,  .6f,  -.6f,  7,     -0.f};
        auto q = quant(DType::MXFP4, x);
        const uint8_t expect[17] = {127,  0x00, 0x10, 0x20, 0x31, 0x51, 0x69, 0xe3, 0xf5,
                                    0x06, 0x07, 0x57, 0x5f, 0x12, 0x9a, 0x74, 0x0c};
        for (int i = 0; i < 17; ++i)
            QCOMPARE(q[i], expect[i]);
        const float values[32] = {0,  0,  0,  .5f, .5f, -.5f, 1.5f, 3,    4,    6, 6,
                                  -6, 1,  -1, 2,   -2,  0,    .5f,  1,    1.5f, 3, 4,
                                  -4, -6, 0,  0,   3,   3,    .5f,  -.5f, 6,    0};
        auto y = dequant(DType::MXFP4, q.data(), 32);
        for (int i = 0; i < 32; ++i)
            QCOMPARE(y[i], values[i]);
    }

    void dequantQ4K() {
        // 6-bit scales/mins chosen so that j >= 4 needs the high 2 bits stored in bytes 0..7.
        const int sc[8] = {1, 2, 3, 4, 60, 17, 33, 63};
        const int mn[8] = {5, 6, 7, 8, 50, 18, 47, 32};
        BlockQ4K b{};
        b.d = fp32_to_fp16(0.5f);
        b.dmin = fp32_to_fp16(0.25f);
        for (int j = 0; j < 4; ++j) {
            b.scales[j] = static_cast<uint8_t>(sc[j] | ((sc[j + 4] >> 4) << 6));
            b.scales[j + 4] = static_cast<uint8_t>(mn[j] | ((mn[j + 4] >> 4) << 6));
            b.scales[j + 8] = static_cast<uint8_t>((sc[j + 4] & 0xF) | ((mn[j + 4] & 0xF) << 4));
        }
        // Element 64c + l (l < 32) is the low nibble of qs[32c + l], element 64c + 32 + l the high.
        int q[256];
        for (int i = 0; i < 256; ++i)
            q[i] = (i * 5 + i / 32) % 16;
        for (int c = 0; c < 4; ++c)
            for (int l = 0; l < 32; ++l)
                b.qs[32 * c + l] = static_cast<uint8_t>(q[64 * c + l] | (q[64 * c + 32 + l] << 4));
        for (int j = 0; j < 8; ++j) {
            uint8_t s, m;
            q4k_scale_min(j, b.scales, &s, &m);
            QCOMPARE(int(s), sc[j]);
            QCOMPARE(int(m), mn[j]);
        }
        auto y = dequant(DType::Q4_K, &b, 256);
        for (int i = 0; i < 256; ++i) {
            const int j = i / 32; // sub-block
            QCOMPARE(y[i], 0.5f * sc[j] * q[i] - 0.25f * mn[j]);
        }
    }

    void dequantQ6K() {
        // Pack 256 six-bit values by the layout description: element 128h + 32g + l has its low
        // 4 bits in ql[64h + l + 32(g&1)] (low nibble for g < 2, high for g >= 2) and its high
        // 2 bits in bits 2g..2g+1 of qh[32h + l]; sub-block scale = scales[element / 16].
        int q[256];
        for (int i = 0; i < 256; ++i)
            q[i] = (i * 7 + 3) % 64;
        BlockQ6K b{};
        b.d = fp32_to_fp16(0.25f);
        for (int s = 0; s < 16; ++s)
            b.scales[s] = static_cast<int8_t>(s * 17 - 128);
        for (int i = 0; i < 256; ++i) {
            const int h = i / 128, g = (i % 128) / 32, l = i % 32;
            uint8_t& lo = b.ql[64 * h + l + 32 * (g & 1)];
            lo = static_cast<uint8_t>(lo | ((q[i] & 0xF) << (g >= 2 ? 4 : 0)));
            b.qh[32 * h + l] = static_cast<uint8_t>(b.qh[32 * h + l] | ((q[i] >> 4) << (2 * g)));
        }
        auto y = dequant(DType::Q6_K, &b, 256);
        for (int i = 0; i < 256; ++i)
            QCOMPARE(y[i], 0.25f * b.scales[i / 16] * (q[i] - 32));
    }

    void quantizerRoundingRules() {
        // Q8_0 reference quantizer rounds half away from zero; the activation quantizer (SIMD
        // rule, id = 127/amax) rounds half to even. amax = 127 gives d = 1 for both.
        std::vector<float> x(32, 0.0f);
        x[0] = 127;
        x[1] = 2.5f;
        x[2] = -2.5f;
        x[3] = 0.5f;
        x[4] = 3.5f;
        auto q = quant(DType::Q8_0, x);
        const auto* b = reinterpret_cast<const BlockQ8_0*>(q.data());
        QCOMPARE(fp16_to_fp32(b->d), 1.0f);
        QCOMPARE(int(b->qs[1]), 3);
        QCOMPARE(int(b->qs[2]), -3);
        QCOMPARE(int(b->qs[3]), 1);
        BlockQ8_0 a{};
        quantize_row_q8_0_act(x.data(), &a, 32);
        QCOMPARE(int(a.qs[0]), 127);
        QCOMPARE(int(a.qs[1]), 2);
        QCOMPARE(int(a.qs[2]), -2);
        QCOMPARE(int(a.qs[3]), 0);
        QCOMPARE(int(a.qs[4]), 4);
        // Q4_0: d = max/-8 with the signed max; the extreme maps to level 0 (value -8·d = max).
        std::vector<float> y(32, 0.0f);
        y[7] = -4.0f;
        y[8] = 1.0f;
        auto q4 = quant(DType::Q4_0, y);
        const auto* b4 = reinterpret_cast<const BlockQ4_0*>(q4.data());
        QCOMPARE(fp16_to_fp32(b4->d), 0.5f);
        QCOMPARE(b4->qs[7] & 0xF, 0);
        auto r4 = dequant(DType::Q4_0, q4.data(), 32);
        QCOMPARE(r4[7], -4.0f);
        QCOMPARE(r4[8], 1.0f);
        QCOMPARE(r4[0], 0.0f);
    }

    void q8KActivationQuantizer() {
        auto x = random_normal(512, 3);
        x[17] = -9.0f; // largest magnitude, negative
        BlockQ8K b[2];
        quantize_row_q8_k(x.data(), b, 512);
        QCOMPARE(int(b[0].qs[17]), -127); // iscale = -127/max and max is the signed value
        QCOMPARE(b[0].d, 1.0f / (-127.0f / -9.0f));
        for (int blk = 0; blk < 2; ++blk)
            for (int s = 0; s < 16; ++s) {
                int sum = 0;
                for (int l = 0; l < 16; ++l)
                    sum += b[blk].qs[16 * s + l];
                QCOMPARE(int(b[blk].bsums[s]), sum);
            }
        for (int i = 0; i < 256; ++i)
            QVERIFY(std::fabs(b[0].qs[i] * b[0].d - x[i]) <= std::fabs(b[0].d) * 0.5001f);
    }

    void quantizeDequantizeErrorBounds_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<double>("maxRelRms");
        // Relative RMS error on N(0,1) data. Uniform rounding error of step Δ has RMS Δ/√12;
        // the bounds below leave about 1.5× margin over the measured values:
        // F16 (2^-11 rel): ~3e-4; BF16 (2^-8): ~2.3e-3; Q8_0 (Δ = amax/127, amax ≈ 2.5σ): ~6e-3;
        // Q6_K: ~1.6e-2; Q4_K: ~6e-2 (weighted fit); Q4_0 (Δ = amax/8): ~0.11;
        // MXFP4 (E2M1, 1 mantissa bit): ~0.14.
        QTest::newRow("f16") << int(DType::F16) << 5e-4;
        QTest::newRow("bf16") << int(DType::BF16) << 4e-3;
        QTest::newRow("q8_0") << int(DType::Q8_0) << 1e-2;
        QTest::newRow("q6_k") << int(DType::Q6_K) << 2.5e-2;
        QTest::newRow("q4_k") << int(DType::Q4_K) << 9e-2;
        QTest::newRow("q4_0") << int(DType::Q4_0) << 0.16;
        QTest::newRow("mxfp4") << int(DType::MXFP4) << 0.2;
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
        QVERIFY2(rel < maxRelRms, qPrintable(QString("relative RMS error %1").arg(rel)));
        qInfo("%s: relative RMS error %.3g", std::string(dtype_name(t)).c_str(), rel);
        // Per-block bound for Q8_0: |error| <= d/2 for the rounding plus |q|·|fp16(d) − d| ≤
        // 127·2^-11·d for the fp16 rounding of the scale: 0.563·d.
        if (t == DType::Q8_0) {
            const auto* b = reinterpret_cast<const BlockQ8_0*>(q.data());
            for (size_t i = 0; i < x.size(); ++i)
                QVERIFY(std::fabs(y[i] - x[i]) <= fp16_to_fp32(b[i / 32].d) * 0.563f + 1e-6f);
        }
    }

    void quantizerEdgeCases_data() {
        QTest::addColumn<int>("type");
        for (DType t : {DType::F16, DType::BF16, DType::Q8_0, DType::Q4_0, DType::Q4_K, DType::Q6_K,
                        DType::MXFP4})
            QTest::newRow(std::string(dtype_name(t)).c_str()) << int(t);
    }

    void quantizerEdgeCases() {
        QFETCH(int, type);
        const DType t = static_cast<DType>(type);
        // All zeros -> all zeros, no NaN.
        std::vector<float> z(512, 0.0f);
        auto yz = dequant(t, quant(t, z).data(), 512);
        for (float v : yz)
            QCOMPARE(v, 0.0f);
        // One large value among zeros: the others stay exactly 0; the large one is kept within
        // the type's precision (MXFP4 saturates: 1000 = 7.8·2^7 -> 6·2^7 = 768).
        std::vector<float> one(512, 0.0f);
        one[5] = 1000.0f;
        one[300] = -3.0f;
        auto y = dequant(t, quant(t, one).data(), 512);
        for (int i = 0; i < 512; ++i) {
            if (i == 5 || i == 300)
                continue;
            // Q4_K stores an offset per 32-element sub-block: zeros next to -3 come back as
            // d·sc·15 − dmin·m, zero only up to the 6-bit/fp16 rounding of scale and min.
            if (t == DType::Q4_K && i / 32 == 300 / 32)
                QVERIFY2(std::fabs(y[i]) <= 0.02f, qPrintable(QString::number(y[i])));
            else
                QCOMPARE(y[i], 0.0f);
        }
        const float expect = t == DType::MXFP4 ? 768.0f : 1000.0f;
        QVERIFY2(std::fabs(y[5] - expect) <= 4.0f, qPrintable(QString::number(y[5])));
        // -3 is alone in its own block for the 32-blocks and the K-quant second super-block.
        QVERIFY2(std::fabs(y[300] + 3.0f) <= 0.02f, qPrintable(QString::number(y[300])));
    }

    void rowErrors() {
        float dst[64];
        uint8_t src[64] = {};
        auto bad = dequantize_row(DType::Q8_0, src, dst, 33);
        QVERIFY(!bad);
        QCOMPARE(bad.error().code, ErrorCode::InvalidArgument);
        auto unsup = dequantize_row(DType::Q8_K, src, dst, 256); // an activation-only type
        QVERIFY(!unsup);
        QCOMPARE(unsup.error().code, ErrorCode::Unsupported);
        QVERIFY(!quantize_row(DType::Q4_K, dst, src, 64));
    }

    // The reference quantizers against llama-quantize: every Q8_0 / MXFP4 tensor of the
    // conformance models, re-quantized here from the F32 model, must be byte-identical.
    void llamaQuantizeBytesMatch() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const std::pair<const char*, const char*> pairs[] = {
            {"ds2-qlora-f32.gguf", "ds2-qlora-q8_0.gguf"},
            {"ds2-qlora-f32.gguf", "ds2-qlora-mxfp4moe.gguf"},
            {"kimi-linear-f32.gguf", "kimi-linear-q8_0.gguf"},
            {"kimi-linear-f32.gguf", "kimi-linear-mxfp4moe.gguf"},
        };
        int compared = 0;
        for (auto [f32_name, q_name] : pairs) {
            auto f32 = gguf::File::open((dir + "/models/" + f32_name).toStdString());
            auto q = gguf::File::open((dir + "/models/" + q_name).toStdString());
            QVERIFY2(f32 && q, f32 ? q_name : f32_name); // the folder is there: the files must be
            for (const gguf::TensorInfo& t : (*q)->tensors()) {
                if (t.type == DType::F32)
                    continue;
                const gguf::TensorInfo* src = (*f32)->find_tensor(t.name);
                QVERIFY2(src && src->type == DType::F32 && src->ne == t.ne, t.name.c_str());
                const int64_t k = t.ne[0], rows = t.n_elements() / k;
                const size_t rb = dtype_row_bytes(t.type, static_cast<uint64_t>(k));
                std::vector<uint8_t> mine(rb);
                for (int64_t r = 0; r < rows; ++r) {
                    QVERIFY(quantize_row(t.type, reinterpret_cast<const float*>(src->data) + r * k,
                                         mine.data(), k));
                    QVERIFY2(
                        std::memcmp(mine.data(), t.data + r * rb, rb) == 0,
                        qPrintable(QString("%1 %2 row %3").arg(q_name).arg(t.name.c_str()).arg(r)));
                }
                ++compared;
            }
        }
        qInfo("%d quantized tensors byte-identical to llama-quantize", compared);
        QVERIFY(compared > 50);
    }

    void tensorViewStridesAndSlices() {
        std::vector<uint8_t> data(dtype_row_bytes(DType::Q8_0, 64) * 3 * 4);
        TensorView v = make_tensor_view(DType::Q8_0, {64, 3, 4, 1}, data.data());
        QCOMPARE(v.nb[0], size_t(34));
        QCOMPARE(v.nb[1], size_t(68));
        QCOMPARE(v.nb[2], size_t(204));
        QCOMPARE(v.nb[3], size_t(816));
        auto s = slice_matrix(v, 2);
        QVERIFY(s.has_value());
        QCOMPARE(static_cast<const uint8_t*>(s->data), data.data() + 408);
        QCOMPARE(s->ne[2], int64_t(1));
        QVERIFY(!slice_matrix(v, 4));
        QVERIFY(!slice_matrix(v, -1));
        struct FakeInfo {
            DType type;
            std::array<int64_t, 4> ne;
            const uint8_t* data;
        } info{DType::F16, {8, 2, 1, 1}, data.data()};
        TensorView g = tensor_view_of(info);
        QCOMPARE(g.nb[1], size_t(16));
        QVERIFY(
            !check_tensor_view(make_tensor_view(DType::Q4_K, {100, 1, 1, 1}, data.data()), "t"));
    }
};

QTEST_APPLESS_MAIN(TestQuant)
#include "test_quant.moc"
