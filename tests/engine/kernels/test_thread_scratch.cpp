// The kernels' per-thread scratch is counted (kernels/thread_scratch.h): a prefill matmul on a
// thread of its own adds at least its converted activations and packed rows to the count, and
// the count falls back when that thread ends and its thread_local buffers go.
#include <QtTest>

#include "kernels/matmul.h"
#include "kernels/thread_scratch.h"
#include "tensor/quant_blocks.h"
#include "tensor/tensor_view.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>
#include <vector>

using namespace folio;

class TestThreadScratch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aVectorCountsItsCapacityUntilItsThreadEnds() {
        const uint64_t before = thread_scratch_bytes();
        uint64_t during = 0;
        std::thread t([&] {
            thread_local ThreadScratch<float> s;
            s.resize(1000);
            s.resize(10); // never shrinks
            during = thread_scratch_bytes();
        });
        t.join();
        QVERIFY2(during >= before + 4000, qPrintable(QString::number(during - before)));
        QCOMPARE(thread_scratch_bytes(), before);
    }

    void aPrefillMatmulsBuffersAreCounted() {
        // Q8_0 weight, K = 256 (8 blocks of 34 bytes), 32 rows; 64 tokens take the GEMM path,
        // which converts the activations (64 rows of at least 272 bytes) and packs them.
        const int64_t k = 256, n = 32, tokens = 64;
        std::vector<uint8_t> w(static_cast<size_t>(n * k / 32) * sizeof(BlockQ8_0));
        auto* b = reinterpret_cast<BlockQ8_0*>(w.data());
        for (int64_t i = 0; i < n * k / 32; ++i) {
            b[i].d = 0x3c00; // 1.0 in fp16
            for (int j = 0; j < 32; ++j)
                b[i].qs[j] = static_cast<int8_t>((i + j) % 7 - 3);
        }
        std::vector<float> x(static_cast<size_t>(k * tokens), 0.5f);
        std::vector<float> y(static_cast<size_t>(n * tokens), 0.0f);
        const TensorView v = make_tensor_view(DType::Q8_0, {k, n, 1, 1}, w.data());
        const uint64_t before = thread_scratch_bytes();
        uint64_t during = 0;
        bool ok = false;
        std::thread t([&] {
            ok = bool(
                matmul(KernelContext{1, KernelPath::Auto}, v, x.data(), k, tokens, y.data(), n));
            during = thread_scratch_bytes();
        });
        t.join();
        QVERIFY(ok);
        QVERIFY2(during >= before + uint64_t(tokens * 272),
                 qPrintable(QStringLiteral("counted %1 bytes").arg(during - before)));
        QCOMPARE(thread_scratch_bytes(), before);
        // The result is real: every output is the dot of 0.5 with its row's values.
        float expect = 0;
        for (int64_t i = 0; i < k / 32; ++i)
            for (int j = 0; j < 32; ++j)
                expect += 0.5f * float((i + j) % 7 - 3);
        QVERIFY(std::abs(y[0] - expect) <= 0.02f * std::max(1.0f, std::abs(expect)));
    }
};

QTEST_GUILESS_MAIN(TestThreadScratch)
#include "test_thread_scratch.moc"
