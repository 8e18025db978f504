// The kernel thread count under load (runtime/cpu_share.h): the rule on fixed samples, and a
// live check that threads busy outside the engine's team take the second thread away.
#include <QtTest>

#include "runtime/cpu_share.h"

#include <atomic>
#include <thread>
#include <vector>

using namespace folio;

class TestCpuShare : public QObject {
    Q_OBJECT
private slots:
    void ruleOnFixedSamples() {
        // Two CPUs, a 1 s interval at 100 ticks per second: 200 ticks in all.
        const CpuSample t0{1000, 5000, 300};
        auto after = [&](uint64_t busy, uint64_t team) {
            return CpuSample{t0.busy + busy, t0.total + 200, t0.team + team};
        };
        double others = -1;
        // Quiet machine: the team alone kept both CPUs busy (spinning included).
        QCOMPARE(threads_for_load(t0, after(200, 195), 2, 2, &others), 2);
        QVERIFY(std::abs(others - 0.05) < 1e-9);
        // A process holding one core: others = 1.0 CPU, one is free.
        QCOMPARE(threads_for_load(t0, after(200, 100), 2, 2, &others), 1);
        QVERIFY(std::abs(others - 1.0) < 1e-9);
        // The fair share of three runnable threads on two cores: others got 0.67.
        QCOMPARE(threads_for_load(t0, after(200, 133), 2, 2, &others), 1);
        // The GUI drawing now and then (0.3 CPU): both threads stay.
        QCOMPARE(threads_for_load(t0, after(130, 100), 2, 2, &others), 2);
        QVERIFY(std::abs(others - 0.3) < 1e-9);
        // Never fewer than one, never more than configured.
        QCOMPARE(threads_for_load(t0, after(200, 0), 2, 2), 1);
        QCOMPARE(threads_for_load(t0, after(0, 0), 8, 4), 4);
        // No time passed (or a counter went back): the configured count.
        QCOMPARE(threads_for_load(t0, t0, 2, 2), 2);
    }

    void busyThreadsOutsideTheTeamTakeCoresAway() {
        if (qEnvironmentVariable("FOLIO_ADAPTIVE_THREADS") == QLatin1String("0"))
            QFAIL("FOLIO_ADAPTIVE_THREADS=0 turns off what this test checks");
        // As many spinning threads as CPUs: whatever else runs, no core is free.
        const unsigned n = std::max(1u, std::thread::hardware_concurrency());
        std::atomic<bool> stop{false};
        std::vector<std::thread> hogs;
        for (unsigned i = 0; i < n; ++i)
            hogs.emplace_back([&stop] {
                volatile unsigned long x = 0;
                while (!stop.load(std::memory_order_relaxed))
                    x = x + 1;
            });
        CpuShare share(2);
        int seen = share.threads();
        QElapsedTimer clock;
        clock.start();
        // Two measurements half a second apart are needed; allow for a slow machine.
        while (clock.elapsed() < 5000 && (seen != 1 || clock.elapsed() < 1200)) {
            QThread::msleep(50);
            seen = share.threads();
        }
        const double others = share.others_cpus();
        stop = true;
        for (auto& t : hogs)
            t.join();
        QCOMPARE(seen, 1);
        QVERIFY2(others > 0.5 * n, qPrintable(QString::number(others)));
    }
};

QTEST_APPLESS_MAIN(TestCpuShare)
#include "test_cpu_share.moc"
