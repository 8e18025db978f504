// Idle engine threads sleep: once a request is done, the process uses next to no CPU. OpenMP's
// workers spin at their barriers before they sleep (libgomp: ~300,000 pause loops, 7–10 ms
// here), so without the engine parking its team (runtime/thread_park.h) every worker burned that
// after each request. Runs without OMP_WAIT_POLICY (tests/runtime.cmake), which every other
// suite sets to PASSIVE, so the runtime's default policy is what the engine has to deal with.
#include <QtTest>

#include "folio/engine.h"
#include "support/engine_helpers.h"
#include "support/test_support.h"

#include <chrono>
#include <dirent.h>
#include <fstream>
#include <map>
#include <string>
#include <thread>

using namespace folio;
using namespace folio::test;

namespace {

// CPU milliseconds each thread of this process has run so far (/proc/self/task/*/schedstat:
// nanoseconds on a CPU); empty without /proc.
std::map<std::string, double> threadCpuMs() {
    std::map<std::string, double> out;
    DIR* d = opendir("/proc/self/task");
    if (!d)
        return out;
    while (const dirent* e = readdir(d)) {
        if (e->d_name[0] == '.')
            continue;
        std::ifstream f(std::string("/proc/self/task/") + e->d_name + "/schedstat");
        double ns = 0;
        if (f >> ns)
            out[e->d_name] = ns / 1e6;
    }
    closedir(d);
    return out;
}

struct IdleCpu {
    double all = 0;     // every thread of the process
    double workers = 0; // threads that did not exist when the engine was made: its kernel team
};

// CPU used over `ms` of this thread sleeping, counting in `workers` the threads not in `before`.
IdleCpu idleCpu(int ms, const std::map<std::string, double>& before) {
    const auto a = threadCpuMs();
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    IdleCpu out;
    for (const auto& [tid, cpu] : threadCpuMs()) {
        const auto was = a.find(tid);
        const double used = cpu - (was == a.end() ? 0.0 : was->second);
        out.all += used;
        if (!before.count(tid))
            out.workers += used;
    }
    return out;
}

} // namespace

class TestIdleThreads : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        // Two threads whatever the machine's load, so the engine has an OpenMP team.
        qputenv("FOLIO_ADAPTIVE_THREADS", "0");
        QVERIFY2(qgetenv("OMP_WAIT_POLICY").isEmpty() && qgetenv("GOMP_SPINCOUNT").isEmpty(),
                 "run without OMP_WAIT_POLICY / GOMP_SPINCOUNT: the default policy is under test");
        if (threadCpuMs().empty())
            QSKIP("needs /proc/self/task");
    }

    void threadsSleepAfterARequest() {
        if (underThreadSanitizer())
            QSKIP("starts folio-cli");
        // The small bench preset (31 MB in Q8_0): its matvecs are big enough to run on two
        // threads; the conformance models' are not.
        const QString model = scratchDir(QStringLiteral("idle")) + QStringLiteral("/small.gguf");
        const CliRun made = runCli(
            {QStringLiteral("make-model"), QStringLiteral("--arch"), QStringLiteral("deepseek2"),
             QStringLiteral("--preset"), QStringLiteral("small"), QStringLiteral("--type"),
             QStringLiteral("q8_0"), QStringLiteral("--seed"), QStringLiteral("7"),
             QStringLiteral("--quiet"), QStringLiteral("--out"), model},
            60000);
        QVERIFY2(made.exitCode == 0, qPrintable(made.err));
        Engine engine;
        const auto before = threadCpuMs(); // this test's threads and the engine's scheduler
        ModelSpec spec;
        spec.gguf = model.toStdString();
        spec.threads = 2;
        QVERIFY(engine.load_sync(spec).has_value());
        const SessionId s = engine.create_session();
        std::vector<int32_t> prompt;
        for (int i = 0; i < 64; ++i)
            prompt.push_back(1 + (i * 37) % 4000);
        for (int round = 0; round < 3; ++round) {
            Collected out;
            engine.reset_session(s);
            engine.wait(engine.submit(s, makeRequest(prompt, 48, out)));
            QVERIFY(out.errors.empty());
            QCOMPARE(int(out.ids.size()), 48);
            const IdleCpu idle = idleCpu(300, before);
            qInfo("round %d: CPU over the 300 ms after the request: %.2f ms, %.2f ms of it the "
                  "kernel team's",
                  round, idle.all, idle.workers);
            // Spinning, libgomp's one worker took 7–11 ms here; parked, 0.
            QVERIFY2(idle.workers < 2.0,
                     qPrintable(QStringLiteral("the team ran %1 ms while idle").arg(idle.workers)));
            QVERIFY2(idle.all < 30.0,
                     qPrintable(QStringLiteral("%1 ms of CPU while idle").arg(idle.all)));
        }
    }
};

QTEST_GUILESS_MAIN(TestIdleThreads)
#include "test_idle_threads.moc"
