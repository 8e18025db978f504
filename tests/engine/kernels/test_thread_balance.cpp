// ThreadBalance (engine/kernels/thread_balance.h): decode's row shares in proportion to the
// threads' measured speeds. The shares must tile the rows in order whatever the speeds, follow
// recorded rates, move little on one bad measurement, and never change a result's bits.
#include <QtTest>

#include "kernels/matmul.h"
#include "kernels/thread_balance.h"
#include "support/quant_rows.h"
#include "support/random_data.h"

#include <cstring>

using namespace folio;

namespace {

// `rounds` regions in which thread t went at rate speeds[t] (work fraction per second).
void train(ThreadBalance& b, const std::vector<double>& speeds, int rounds) {
    const int threads = static_cast<int>(speeds.size());
    for (int r = 0; r < rounds; ++r) {
        for (int t = 0; t < threads; ++t) {
            const RowShare s = b.share(threads, 1'000'000, 1, t);
            const double fraction = static_cast<double>(s.size()) / 1e6;
            b.record(t, fraction, fraction / speeds[static_cast<size_t>(t)]);
        }
        b.update(threads);
    }
}

// Every thread's share, checked to tile [0, n) in order with cuts at multiples of align.
std::vector<RowShare> all_shares(const ThreadBalance* b, int threads, int64_t n, int64_t align) {
    std::vector<RowShare> s;
    for (int t = 0; t < threads; ++t)
        s.push_back(row_share(b, threads, n, align, t));
    int64_t at = 0;
    for (int t = 0; t < threads; ++t) {
        if (s[t].begin != at || s[t].end < s[t].begin ||
            (t + 1 < threads && s[t].end % align != 0 && s[t].end != n))
            return {};
        at = s[t].end;
    }
    return at == n ? s : std::vector<RowShare>{};
}

} // namespace

class TestThreadBalance : public QObject {
    Q_OBJECT
private slots:
    // Unmeasured, the shares are the equal ones (what decode used before), for every n, align
    // and thread count.
    void freshSharesAreEqual() {
        const ThreadBalance b;
        for (int threads = 1; threads <= 5; ++threads)
            for (int64_t n : {0, 1, 15, 16, 100, 1003, 4096})
                for (int64_t align : {1, 16}) {
                    const auto fresh = all_shares(&b, threads, n, align);
                    const auto equal = all_shares(nullptr, threads, n, align);
                    QVERIFY2(!fresh.empty() && !equal.empty(),
                             qPrintable(QStringLiteral("threads %1 n %2").arg(threads).arg(n)));
                    for (int t = 0; t < threads; ++t) {
                        QCOMPARE(fresh[t].begin, equal[t].begin);
                        QCOMPARE(fresh[t].end, equal[t].end);
                    }
                    if (threads == 2 && n == 4096)
                        QCOMPARE(fresh[0].end, int64_t{2048});
                }
    }

    // Thread 1 three times as fast as thread 0: after some regions it takes ~3/4 of the rows.
    void sharesFollowRecordedRates() {
        ThreadBalance b;
        train(b, {1.0, 3.0}, 40);
        QVERIFY2(std::abs(b.speed(1) / b.speed(0) - 3.0) < 0.1,
                 qPrintable(QStringLiteral("%1 / %2").arg(b.speed(1)).arg(b.speed(0))));
        const auto s = all_shares(&b, 2, 4096, 16);
        QVERIFY(!s.empty());
        QVERIFY2(std::abs(s[1].size() - 3072) <= 48, qPrintable(QString::number(s[1].size())));
        // Three threads at 1 : 2 : 1.
        ThreadBalance c;
        train(c, {2.0, 4.0, 2.0}, 40);
        const auto s3 = all_shares(&c, 3, 1600, 16);
        QVERIFY(!s3.empty());
        QVERIFY2(std::abs(s3[1].size() - 800) <= 32, qPrintable(QString::number(s3[1].size())));
        // Extreme speeds are clamped: no thread is left without rows.
        ThreadBalance d;
        train(d, {1.0, 1000.0}, 60);
        const auto sd = all_shares(&d, 2, 4096, 16);
        QVERIFY(!sd.empty());
        QVERIFY(sd[0].size() >= 4096 / 20);
        // Tiling holds at any n for skewed speeds.
        for (int64_t n : {0, 1, 17, 31, 1003})
            QVERIFY(!all_shares(&b, 2, n, 16).empty());
    }

    // One region in which a thread was taken off its core (100x slower) moves the split a
    // little, and it comes back.
    void oneSlowRegionMovesLittle() {
        ThreadBalance b;
        train(b, {1.0, 1.0}, 10);
        train(b, {1.0, 0.01}, 1);
        QVERIFY2(b.speed(1) / b.speed(0) > 0.7,
                 qPrintable(QStringLiteral("%1 / %2").arg(b.speed(1)).arg(b.speed(0))));
        QVERIFY(b.speed(1) < b.speed(0));
        train(b, {1.0, 1.0}, 30);
        QVERIFY(std::abs(b.speed(1) / b.speed(0) - 1.0) < 0.02);
    }

    // A region in which not every thread recorded tells nothing: the speeds stay, and its
    // records do not leak into the next region.
    void partialRegionIsIgnored() {
        ThreadBalance b;
        b.record(0, 0.5, 1.0);
        b.update(2);
        QCOMPARE(b.speed(0), 1.0);
        QCOMPARE(b.speed(1), 1.0);
        b.record(0, 0.5, 1.0);
        b.record(1, 0.5, 1.0);
        b.update(2);
        QVERIFY(std::abs(b.speed(0) - 1.0) < 1e-12);
    }

    // A one-token matmul (decode's matvec) split by skewed speeds gives the same bits as the
    // equal split and as one thread: which thread computes a row does not change it.
    void skewedSharesKeepTheBits() {
        for (DType t : {DType::Q4_K, DType::Q8_0, DType::F32}) {
            const int64_t K = 512, N = 301; // >= 64 KB of weights for every type: two threads
            const std::vector<float> w = test::random_normal(static_cast<size_t>(K * N), 3, 0.05f);
            std::vector<uint8_t> bytes;
            for (int64_t r = 0; r < N; ++r) {
                const auto q =
                    test::quant(t, std::vector<float>(w.begin() + r * K, w.begin() + (r + 1) * K));
                bytes.insert(bytes.end(), q.begin(), q.end());
            }
            const TensorView view = make_tensor_view(t, {K, N, 1, 1}, bytes.data());
            const std::vector<float> x = test::random_normal(static_cast<size_t>(K), 4);
            std::vector<float> one(N), equal(N), skewed(N, -1.0f);
            QVERIFY(matmul({1, KernelPath::Auto}, view, x.data(), K, 1, one.data(), N));
            QVERIFY(matmul({2, KernelPath::Auto}, view, x.data(), K, 1, equal.data(), N));
            ThreadBalance b;
            train(b, {1.0, 3.5}, 40);
            QVERIFY(all_shares(&b, 2, N, 1)[0].size() < N / 3);
            QVERIFY(matmul({2, KernelPath::Auto, &b}, view, x.data(), K, 1, skewed.data(), N));
            QVERIFY(std::memcmp(one.data(), equal.data(), N * sizeof(float)) == 0);
            QVERIFY2(std::memcmp(one.data(), skewed.data(), N * sizeof(float)) == 0,
                     qPrintable(QString::fromStdString(std::string(dtype_name(t)))));
        }
    }
};

QTEST_APPLESS_MAIN(TestThreadBalance)
#include "test_thread_balance.moc"
