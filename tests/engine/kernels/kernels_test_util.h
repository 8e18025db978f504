#pragma once
// Shared pieces of the kernel tests (test_kernels*.cpp): test weights quantized from random
// values, matmul on a chosen path, and the bit-for-bit checks of the AVX-512 dots against AVX2.
#include <QtTest>

#include "kernels/activations.h"
#include "kernels/get_rows.h"
#include "kernels/kernel_table.h"
#include "kernels/matmul.h"
#include "kernels/norm.h"
#include "kernels/rope.h"
#include "kernels/softmax.h"
#include "kernels/vec_dot_avx512.h"
#include "kernels/weight_rows.h"
#include "kernels/weight_types.h"
#include "support/random_data.h"
#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

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
inline uint16_t random_block_scale(std::mt19937& rng, bool tiny) {
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

inline Weight make_weight(DType t, int64_t k, int64_t n, int64_t e, uint32_t seed) {
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

inline std::vector<float> run_matmul(const KernelContext& ctx, const TensorView& w,
                                     const std::vector<float>& x, int64_t t) {
    std::vector<float> y(static_cast<size_t>(w.ne[1] * t), std::nanf(""));
    auto st = matmul(ctx, w, x.data(), w.ne[0], t, y.data(), w.ne[1]);
    if (!st)
        qFatal("matmul: %s", st.error().message.c_str());
    return y;
}

inline bool have_avx2() {
    return avx2_kernels_available();
}

// One weight through the AVX-512 dot (KernelPath::Auto) and the AVX2 one: the same bits for
// 1, 2, 3, 4 and 7 activation rows (token counts below the GEMM's) on 1 and 2 threads; with
// near_reference, also within 1e-4 of the plain reference (an independent check of both).
inline void expect_auto_bits_equal_avx2(const Weight& w, int64_t k, bool near_reference,
                                        int& compared) {
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
inline void expect_rows_dot_bits_equal(const Weight& w, DType type, int64_t k, int64_t n,
                                       int& compared) {
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
