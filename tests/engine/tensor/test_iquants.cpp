// The grid i-quants and ternary types (IQ1_S, IQ1_M, IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S,
// TQ1_0, TQ2_0): codebook tables against checksums of ggml's ggml-common.h and their defining
// properties, the dequantizers against hand-computed values of constructed blocks, the reference
// dot against the dequantized weights, and the AVX2 dots against the reference on odd shapes.
#include <QtTest>

#include "support/test_support.h"

#include "gguf/gguf_file.h"
#include "kernels/kernel_table.h"
#include "kernels/matmul.h"
#include "kernels/reference/vec_dot_iq_ref.h"
#include "kernels/vec_dot_iq_avx2.h"
#include "kernels/weight_rows.h"
#include "kernels/weight_types.h"
#include "tensor/fp16.h"
#include "tensor/iq_blocks.h"
#include "tensor/iq_decode.h"
#include "tensor/iq_grids.h"
#include "tensor/quant_blocks.h"
#include "tensor/quantize.h"
#include "tensor/tensor_view.h"

#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <vector>

using namespace folio;

namespace {

// FNV-1a over the little-endian bytes of a table (tools/iq_grids/gen_iq_grids.py prints the same
// sums of the tables in ggml-common.h).
template <typename T, size_t N> uint64_t fnv1a(const T (&table)[N]) {
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < N; ++i)
        for (size_t b = 0; b < sizeof(T); ++b) {
            h ^= static_cast<uint8_t>(static_cast<uint64_t>(table[i]) >> (8 * b));
            h *= 0x100000001B3ull;
        }
    return h;
}

template <typename T, size_t N>
bool bytesWithin(const T (&table)[N], const std::set<int>& allowed) {
    for (size_t i = 0; i < N; ++i)
        for (size_t b = 0; b < sizeof(T); ++b)
            if (!allowed.count(static_cast<int8_t>(static_cast<uint64_t>(table[i]) >> (8 * b))))
                return false;
    return true;
}

template <typename T, size_t N> bool strictlyIncreasing(const T (&table)[N]) {
    for (size_t i = 1; i < N; ++i)
        if (!(table[i - 1] < table[i]))
            return false;
    return true;
}

std::vector<float> dequant(uint32_t ggml_type, const void* block, int64_t n = 256) {
    std::vector<float> y(static_cast<size_t>(n));
    dequantize_row_iq(*iq_format(ggml_type), block, y.data(), n);
    return y;
}

void compareValues(const std::vector<float>& y, const std::vector<std::pair<int, float>>& want) {
    for (const auto& p : want)
        if (y[static_cast<size_t>(p.first)] != p.second)
            QFAIL(qPrintable(QString("value %1 = %2, expected %3")
                                 .arg(p.first)
                                 .arg(double(y[static_cast<size_t>(p.first)]))
                                 .arg(double(p.second))));
}

struct DotPair {
    uint32_t ggml_type;
    const char* name;
    VecDotFn ref;
    VecDotFn avx2;
};

const DotPair kDots[] = {
    {16, "iq2_xxs", ref::dot_iq2_xxs, avx2::dot_iq2_xxs},
    {17, "iq2_xs", ref::dot_iq2_xs, avx2::dot_iq2_xs},
    {18, "iq3_xxs", ref::dot_iq3_xxs, avx2::dot_iq3_xxs},
    {19, "iq1_s", ref::dot_iq1_s, avx2::dot_iq1_s},
    {21, "iq3_s", ref::dot_iq3_s, avx2::dot_iq3_s},
    {22, "iq2_s", ref::dot_iq2_s, avx2::dot_iq2_s},
    {29, "iq1_m", ref::dot_iq1_m, avx2::dot_iq1_m},
    {34, "tq1_0", ref::dot_tq1_0, avx2::dot_tq1_0},
    {35, "tq2_0", ref::dot_tq2_0, avx2::dot_tq2_0},
};

// Random super-blocks with a finite fp16 scale in [0.01, 0.1) (IQ1_M: spread over the scale
// words' top nibbles).
std::vector<uint8_t> randomBlocks(uint32_t ggml_type, int64_t n_blocks, std::mt19937& rng) {
    const IqFormat f = *iq_format(ggml_type);
    std::vector<uint8_t> w(f.block_bytes * static_cast<size_t>(n_blocks));
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_real_distribution<float> scale(0.01f, 0.1f);
    for (auto& v : w)
        v = static_cast<uint8_t>(byte(rng));
    for (int64_t b = 0; b < n_blocks; ++b) {
        uint8_t* blk = w.data() + b * f.block_bytes;
        const uint16_t d = fp32_to_fp16(scale(rng));
        if (ggml_type == 29) {
            for (int i = 0; i < 4; ++i) {
                uint8_t& hi = blk[offsetof(BlockIq1m, scales) + 2 * i + 1];
                hi = static_cast<uint8_t>((hi & 0x0F) | (((d >> (4 * i)) & 0xF) << 4));
            }
        } else if (ggml_type == 34 || ggml_type == 35) {
            std::memcpy(blk + f.block_bytes - 2, &d, 2); // d is the last field
        } else {
            std::memcpy(blk, &d, 2); // d is the first field
        }
    }
    return w;
}

std::vector<uint8_t> q8kRows(int64_t k, int nx, std::mt19937& rng) {
    std::normal_distribution<float> nd(0.0f, 1.0f);
    const size_t row = static_cast<size_t>(k / kQKK) * sizeof(BlockQ8K);
    std::vector<uint8_t> x(row * static_cast<size_t>(nx));
    std::vector<float> src(static_cast<size_t>(k));
    for (int j = 0; j < nx; ++j) {
        for (float& v : src)
            v = nd(rng);
        quantize_row_q8_k(src.data(), x.data() + row * static_cast<size_t>(j), k);
    }
    return x;
}

} // namespace

class TestIquants : public QObject {
    Q_OBJECT
private slots:
    // Checksums printed by tools/iq_grids/gen_iq_grids.py over ggml-common.h: a changed entry in
    // a generated table fails here.
    void gridTablesMatchGgmlCommon() {
        QCOMPARE(fnv1a(kIqSigns), 0xf19ba8f8c3292ba5ull);
        QCOMPARE(fnv1a(kIq2xxsGrid), 0xbb4ee025b5ac6e8eull);
        QCOMPARE(fnv1a(kIq2xsGrid), 0xc9b1ee61e79909bdull);
        QCOMPARE(fnv1a(kIq2sGrid), 0x123edd38a3b62b90ull);
        QCOMPARE(fnv1a(kIq3xxsGrid), 0xdfa5dc83d6a155d5ull);
        QCOMPARE(fnv1a(kIq3sGrid), 0xfa37020c25b44829ull);
        QCOMPARE(fnv1a(kIq1sGrid), 0x6703ed863501ae2eull);
    }

    // What the tables must be, whatever their source: value sets, distinct sorted entries, and
    // sign codes whose eighth bit makes the count of negatives even.
    void gridTableProperties() {
        QVERIFY(bytesWithin(kIq2xxsGrid, {8, 25, 43}));
        QVERIFY(bytesWithin(kIq2xsGrid, {8, 25, 43}));
        QVERIFY(bytesWithin(kIq2sGrid, {8, 25, 43}));
        QVERIFY(bytesWithin(kIq3xxsGrid, {4, 12, 20, 28, 36, 44, 52, 62}));
        QVERIFY(bytesWithin(kIq3sGrid, {1, 3, 5, 7, 9, 11, 13, 15}));
        QVERIFY(bytesWithin(kIq1sGrid, {-1, 0, 1}));
        QVERIFY(strictlyIncreasing(kIq2xxsGrid));
        QVERIFY(strictlyIncreasing(kIq2xsGrid));
        QVERIFY(strictlyIncreasing(kIq2sGrid));
        QVERIFY(strictlyIncreasing(kIq3xxsGrid));
        QVERIFY(strictlyIncreasing(kIq3sGrid));
        for (int c = 0; c < 128; ++c) {
            const int parity = __builtin_popcount(static_cast<unsigned>(c)) & 1;
            QCOMPARE(int(kIqSigns[c]), c | parity << 7);
        }
    }

    void dequantIq2xxs() {
        BlockIq2xxs b{};
        b.d = fp32_to_fp16(2.0f);
        b.qs[0] = 0xFF01;  // groups 0, 1 of chunk 0: grid entries 1 and 255
        b.qs[2] = 1;       // sign code of group 0: 1 -> kIqSigns 129: values 0, 7 negative
        b.qs[3] = 3 << 12; // scale s = 3: 2·(2·3 + 1)/8 = 1.75
        const auto y = dequant(16, &b);
        // entry 1 = 0x080808080808082b, entry 255 = 0x2b2b2b1908081908 (ggml-common.h)
        compareValues(y, {{0, -75.25f},
                          {1, 14},
                          {6, 14},
                          {7, -14},
                          {8, 14},
                          {9, 43.75f},
                          {12, 43.75f},
                          {13, 75.25f},
                          {15, 75.25f},
                          {16, 14},
                          {31, 14},
                          // other chunks: entry 0 (all 8), scale 2·1/8
                          {32, 2},
                          {255, 2}});
    }

    void dequantIq2xs() {
        BlockIq2xs b{};
        b.d = fp32_to_fp16(1.0f);
        b.qs[0] = 300 | 5 << 9; // entry 300 = 0x1908190808191908, sign code 5: values 0, 2
        b.qs[2] = 511;          // entry 511: all 43
        b.scales[0] = 0x21;     // groups 0-1: (2·1 + 1)/8, groups 2-3: (2·2 + 1)/8
        const auto y = dequant(17, &b);
        compareValues(y, {{0, -3},
                          {1, 9.375f},
                          {2, -9.375f},
                          {3, 3},
                          {5, 9.375f},
                          {7, 9.375f},
                          {8, 3},
                          {16, 26.875f},
                          {23, 26.875f},
                          {24, 5},
                          {32, 1}});
    }

    void dequantIq2s() {
        BlockIq2s b{};
        b.d = fp32_to_fp16(1.0f);
        b.qs[0] = 700 & 0xFF; // entry 700 = 0x1919082b2b080808
        b.qs[1] = 0xFF;       // entry 1023: all 43
        b.qh[0] = 2 | 3 << 2; // high index bits of groups 0 and 1
        b.qs[32] = 0x80;      // sign bytes: value 7, value 8
        b.qs[33] = 0x01;
        b.scales[0] = 0x13; // (2·3 + 1)/8 and (2·1 + 1)/8
        const auto y = dequant(22, &b);
        compareValues(y, {{0, 7},
                          {3, 37.625f},
                          {4, 37.625f},
                          {6, 21.875f},
                          {7, -21.875f},
                          {8, -37.625f},
                          {9, 37.625f},
                          {16, 3},
                          {31, 3},
                          {32, 1}});
    }

    void dequantIq3xxs() {
        BlockIq3xxs b{};
        b.d = fp32_to_fp16(1.0f);
        b.qs[0] = 1;                      // entry 1 = 0x04040414
        b.qs[1] = 200;                    // entry 200 = 0x2c043e04
        const uint32_t sg = 3 | 2u << 28; // sign code 3: values 0, 1; scale (2·2 + 1)/4
        std::memcpy(b.qs + 64, &sg, 4);
        const auto y = dequant(18, &b);
        compareValues(y, {{0, -25},
                          {1, -5},
                          {2, 5},
                          {4, 5},
                          {5, 77.5f},
                          {6, 5},
                          {7, 55},
                          {8, 5},
                          {31, 5},
                          {32, 1}});
    }

    void dequantIq3s() {
        BlockIq3s b{};
        b.d = fp32_to_fp16(1.0f);
        b.qs[0] = 1;          // entry 1 = 0x01010103
        b.qs[1] = 300 & 0xFF; // entry 300 = 0x07030503 (ninth bit: qh[0] bit 1)
        b.qh[0] = 2;
        b.signs[0] = 0x90;  // values 4 and 7 negative
        b.scales[0] = 0x52; // chunk 0: 2·2 + 1, chunk 1: 2·5 + 1
        const auto y = dequant(21, &b);
        compareValues(y, {{0, 15},
                          {1, 5},
                          {3, 5},
                          {4, -15},
                          {5, 25},
                          {6, 15},
                          {7, -35},
                          // entry 0 = 0x01010101
                          {8, 5},
                          {32, 11},
                          {63, 11},
                          {64, 1}});
    }

    void dequantIq1s() {
        BlockIq1s b{};
        b.d = fp32_to_fp16(1.0f);
        b.qs[0] = 1;    // entry 1 = 0xffffffffffffff01
        b.qs[1] = 0xE8; // entry 1000 = 0x00000000ffff00ff (high bits 3)
        b.qs[2] = 0xFF; // entry 2047: all +1 (high bits 7)
        b.qh[0] = static_cast<uint16_t>(3 << 3 | 7 << 6 | 2 << 12 | 0x8000); // scale 5, shift −1/8
        const auto y = dequant(19, &b);
        compareValues(y, {{0, 4.375f},
                          {1, -5.625f},
                          {7, -5.625f},
                          {8, -5.625f},
                          {9, -0.625f},
                          {10, -5.625f},
                          {12, -0.625f},
                          {16, 4.375f},
                          {24, -5.625f},
                          // chunk 1: entry 0 (all −1), scale 1, shift +1/8
                          {32, -0.875f}});
    }

    void dequantIq1m() {
        BlockIq1m b{};
        // fp16 1.0 = 0x3C00 in the top nibbles of the scale words; word 0 also holds the 3-bit
        // scales of chunk 0: 2 (-> 5) for values 0..15 and 6 (-> 13) for 16..31.
        const uint16_t sc[4] = {2 | 6 << 3, 0, 0xC000, 0x3000};
        std::memcpy(b.scales, sc, 8);
        b.qs[0] = 1;    // entry 1, shift +1/8
        b.qs[1] = 0xE8; // entry 1000, shift −1/8
        b.qs[2] = 0xFF; // entry 2047, shift +1/8
        b.qs[3] = 0;    // entry 0, shift −1/8
        b.qh[0] = 0xB0; // group 1: high bits 3, shift bit
        b.qh[1] = 0x87; // group 2: high bits 7; group 3: shift bit
        const auto y = dequant(29, &b);
        compareValues(y, {{0, 5.625f},
                          {1, -4.375f},
                          {8, -5.625f},
                          {9, -0.625f},
                          {16, 14.625f},
                          {23, 14.625f},
                          {24, -14.625f},
                          {31, -14.625f},
                          // chunk 1: scale word 0 bits 6..11 = 0 -> 1, entry 0, shift +1/8
                          {32, -0.875f}});
    }

    void dequantTq1_0() {
        BlockTq1_0 b{};
        b.d = fp32_to_fp16(0.5f);
        // Base-3 digits (2, 0, 1, 2, 1) = 178 are stored as ceil(178·256/243) = 188.
        b.qs[0] = 188;
        b.qs[32] = 188;
        b.qh[1] = 188;
        const auto y = dequant(34, &b);
        compareValues(y, {{0, 0.5f},
                          {32, -0.5f},
                          {64, 0},
                          {96, 0.5f},
                          {128, 0},
                          {1, -0.5f},
                          {160, 0.5f},
                          {176, -0.5f},
                          {192, 0},
                          {208, 0.5f},
                          {224, 0},
                          {241, 0.5f},
                          {245, -0.5f},
                          {249, 0},
                          {253, 0.5f},
                          {240, -0.5f}});
    }

    void dequantTq2_0() {
        BlockTq2_0 b{};
        b.d = fp32_to_fp16(0.25f);
        b.qs[0] = 2 << 6 | 1 << 4 | 0 << 2 | 3; // codes 3, 0, 1, 2 for values 0, 32, 64, 96
        b.qs[33] = 2;                           // value 128 + 1: code 2; 128 + 33: code 0
        const auto y = dequant(35, &b);
        compareValues(y, {{0, 0.5f},
                          {32, -0.25f},
                          {64, 0},
                          {96, 0.25f},
                          {129, 0.25f},
                          {161, -0.25f},
                          {1, -0.25f}});
    }

    // The reference dot equals Σ dequantized weight · dequantized activation (exact int sums in
    // the dot; the float sum here is double) within float rounding.
    void referenceDotMatchesDequantized() {
        std::mt19937 rng(7);
        for (const DotPair& p : kDots) {
            const int64_t k = 3 * 256;
            const auto w = randomBlocks(p.ggml_type, 3, rng);
            const auto x = q8kRows(k, 1, rng);
            const auto wf = dequant(p.ggml_type, w.data(), k);
            const auto* xb = reinterpret_cast<const BlockQ8K*>(x.data());
            double want = 0, mag = 0;
            for (int64_t i = 0; i < k; ++i) {
                const double xv = double(xb[i / 256].d) * xb[i / 256].qs[i % 256];
                want += double(wf[static_cast<size_t>(i)]) * xv;
                mag += std::fabs(double(wf[static_cast<size_t>(i)]) * xv);
            }
            float got = 0;
            p.ref(k, w.data(), x.data(), 0, 1, &got, 1);
            if (std::fabs(got - want) > 1e-5 * mag)
                QFAIL(qPrintable(
                    QString("%1: dot %2, dequantized %3").arg(p.name).arg(got).arg(want)));
        }
    }

    // llama-quantize's files of each type (conformance/quant) dequantize close to the F32 weights
    // they were made from: relative rms error per tensor well below 1 (a misread grid, sign or
    // scale gives ~1 or more). TQ1_0 and TQ2_0 store the same ternary values (both round x/amax),
    // so their tensors must dequantize identically.
    void conformanceFilesNearTheirF32Base() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const std::string models = (dir + "/quant/models/").toStdString();
        auto base = gguf::File::open(models + "qa-ds2-f32.gguf");
        QVERIFY2(base.has_value(), "qa-ds2-f32.gguf");
        struct Case {
            const char* file;
            DType type;
            double max_rel; // upper bound of the relative rms error per tensor
        };
        const Case cases[] = {
            {"iq1_s", DType::IQ1_S, 0.60},     {"iq1_m", DType::IQ1_M, 0.55},
            {"iq2_xxs", DType::IQ2_XXS, 0.45}, {"iq2_xs", DType::IQ2_XS, 0.40},
            {"iq2_m", DType::IQ2_S, 0.35},     {"iq3_xxs", DType::IQ3_XXS, 0.25},
            {"iq3_s", DType::IQ3_S, 0.20},     {"tq1_0", DType::TQ1_0, 0.85},
            {"tq2_0", DType::TQ2_0, 0.85},
        };
        std::map<std::string, std::vector<float>> ternary; // TQ1_0 tensors by name
        for (const Case& c : cases) {
            auto f = gguf::File::open(models + "qa-ds2-" + c.file + ".gguf");
            QVERIFY2(f.has_value(), c.file);
            int checked = 0;
            double worst = 0;
            for (const gguf::TensorInfo& t : (*f)->tensors()) {
                if (t.type != c.type)
                    continue;
                const gguf::TensorInfo* ref = (*base)->find_tensor(t.name);
                QVERIFY(ref != nullptr && ref->type == DType::F32 && ref->ne == t.ne);
                std::vector<float> y(static_cast<size_t>(t.n_elements()));
                const int64_t rows = t.n_elements() / t.ne[0];
                for (int64_t r = 0; r < rows; ++r)
                    QVERIFY(dequantize_row(t.type, t.data + r * t.row_bytes(),
                                           y.data() + r * t.ne[0], t.ne[0])
                                .has_value());
                const auto* x = reinterpret_cast<const float*>(ref->data);
                double err = 0, norm = 0;
                for (size_t i = 0; i < y.size(); ++i) {
                    err += (double(y[i]) - x[i]) * (double(y[i]) - x[i]);
                    norm += double(x[i]) * x[i];
                }
                const double rel = std::sqrt(err / norm);
                worst = std::max(worst, rel);
                QVERIFY2(rel < c.max_rel, qPrintable(QString("%1 %2: relative rms error %3")
                                                         .arg(c.file)
                                                         .arg(QString::fromStdString(t.name))
                                                         .arg(rel)));
                if (c.type == DType::TQ1_0)
                    ternary[t.name] = y;
                else if (c.type == DType::TQ2_0)
                    QVERIFY2(ternary.at(t.name) == y, t.name.c_str());
                ++checked;
            }
            QVERIFY2(checked >= 17, c.file);
            qInfo("%-8s %2d tensors, worst relative rms error %.3f", c.file, checked, worst);
        }
    }

    // Through the weight-type registry: supported, Q8_K activations, the checked dequantizer,
    // no quantizer (these types need an importance matrix) with the type named, and matmul on
    // both paths equal to the reference dot of the Q8_K-quantized activations.
    void registeredWeightTypes() {
        std::mt19937 rng(11);
        for (const DotPair& p : kDots) {
            const auto type = static_cast<DType>(p.ggml_type);
            QVERIFY2(dtype_is_computable(type), p.name);
            QCOMPARE(QString::fromUtf8(dtype_name(type).data(), int(dtype_name(type).size())),
                     QString::fromUtf8(p.name));
            const WeightType* wt = find_weight_type(type);
            QVERIFY(wt != nullptr);
            QCOMPARE(wt->activations, DType::Q8_K);

            const int64_t k = 2 * 256, n = 5, t = 3;
            const auto w = randomBlocks(p.ggml_type, k / 256 * n, rng);
            std::vector<float> deq(static_cast<size_t>(k));
            QVERIFY(dequantize_row(type, w.data(), deq.data(), k).has_value());
            QVERIFY(deq == dequant(p.ggml_type, w.data(), k));
            const auto st =
                quantize_row(type, deq.data(), std::vector<uint8_t>(w.size()).data(), k);
            QVERIFY(!st);
            QVERIFY2(st.error().message.find(p.name) != std::string::npos,
                     st.error().message.c_str());

            std::normal_distribution<float> nd(0.0f, 1.0f);
            std::vector<float> x(static_cast<size_t>(k * t));
            for (float& v : x)
                v = nd(rng);
            std::vector<uint8_t> xq(static_cast<size_t>(t * k / 256) * sizeof(BlockQ8K));
            for (int64_t r = 0; r < t; ++r)
                quantize_row_q8_k(x.data() + r * k, xq.data() + r * (k / 256) * sizeof(BlockQ8K),
                                  k);
            const TensorView view = make_tensor_view(type, {k, n, 1, 1}, w.data());
            for (KernelPath path : {KernelPath::Reference, KernelPath::Avx2}) {
                std::vector<float> y(static_cast<size_t>(n * t));
                KernelContext ctx;
                ctx.n_threads = 2;
                ctx.path = path;
                QVERIFY(matmul(ctx, view, x.data(), k, t, y.data(), n).has_value());
                for (int64_t r = 0; r < t; ++r)
                    for (int64_t i = 0; i < n; ++i) {
                        float want = 0;
                        p.ref(k, view.row(i), xq.data() + r * (k / 256) * sizeof(BlockQ8K), 0, 1,
                              &want, 1);
                        const float got = y[static_cast<size_t>(r * n + i)];
                        QVERIFY2(std::fabs(got - want) <= 1e-4f * (std::fabs(want) + 1.0f),
                                 qPrintable(QString("%1 row %2 token %3: %4 vs %5")
                                                .arg(p.name)
                                                .arg(i)
                                                .arg(r)
                                                .arg(double(got))
                                                .arg(double(want))));
                    }
            }
        }
    }

    // AVX2 vs reference: weight rows 1..7 (not a multiple of 4), 1..5 blocks per row, 1..4
    // activation rows, output strides > 1.
    void avx2MatchesReference() {
        if (!avx2_kernels_available())
            QSKIP("no AVX2 on this CPU");
        std::mt19937 rng(2026);
        for (const DotPair& p : kDots) {
            const IqFormat f = *iq_format(p.ggml_type);
            for (int64_t nb : {1, 2, 3, 5}) {
                const int64_t k = nb * 256;
                for (int rows : {1, 3, 7}) {
                    const auto w = randomBlocks(p.ggml_type, nb * rows, rng);
                    for (int nx = 1; nx <= 4; ++nx) {
                        const auto x = q8kRows(k, nx, rng);
                        const size_t xs = static_cast<size_t>(nb) * sizeof(BlockQ8K);
                        for (int r = 0; r < rows; ++r) {
                            const uint8_t* wr = w.data() + r * nb * f.block_bytes;
                            float want[8] = {}, got[8] = {};
                            p.ref(k, wr, x.data(), xs, nx, want, 2);
                            p.avx2(k, wr, x.data(), xs, nx, got, 2);
                            const auto wf = dequant(p.ggml_type, wr, k);
                            for (int j = 0; j < nx; ++j) {
                                // Float rounding scales with Σ|w·x|, not with the result.
                                const auto* xb =
                                    reinterpret_cast<const BlockQ8K*>(x.data() + j * xs);
                                float mag = 0;
                                for (int64_t i = 0; i < k; ++i)
                                    mag += std::fabs(wf[static_cast<size_t>(i)] * xb[i / 256].d *
                                                     xb[i / 256].qs[i % 256]);
                                float one = 0; // each row alone, as a cross-check of nx
                                p.ref(k, wr, x.data() + j * xs, xs, 1, &one, 1);
                                const float tol = 2e-6f * mag;
                                if (std::fabs(got[2 * j] - want[2 * j]) > tol || one != want[2 * j])
                                    QFAIL(qPrintable(QString("%1 nb=%2 row=%3 nx=%4 j=%5: avx2 "
                                                             "%6, reference %7 (alone %8)")
                                                         .arg(p.name)
                                                         .arg(nb)
                                                         .arg(r)
                                                         .arg(nx)
                                                         .arg(j)
                                                         .arg(double(got[2 * j]))
                                                         .arg(double(want[2 * j]))
                                                         .arg(double(one))));
                            }
                        }
                    }
                }
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestIquants)
#include "test_iquants.moc"
