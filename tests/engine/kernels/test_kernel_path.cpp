// Which kernel path runs, and that the benches say so (issue 47 §3): kernel_path_name(), and
// `bench-kernels --gemm` / `bench` under FOLIO_KERNELS=avx2 and =portable name that path and
// take the GEMMs' share of the int8 probe of that path (maddubs + madd for AVX2, also on an
// AVX-512 machine), not of the widest probe.
#include <QtTest>

#include "folio/system_info.h"
#include "kernels/kernel_table.h"
#include "support/test_support.h"

using namespace folio;
using namespace folio::test;

namespace {

// folio-cli with FOLIO_KERNELS=kernels (empty: as this test runs, so the child's Auto path is
// the one this process sees).
CliRun runWithKernels(const QByteArray& kernels, const QStringList& args) {
    if (kernels.isEmpty())
        return runCli(args, 120000);
    const QByteArray old = qgetenv("FOLIO_KERNELS");
    const bool had = qEnvironmentVariableIsSet("FOLIO_KERNELS");
    qputenv("FOLIO_KERNELS", kernels);
    CliRun r = runCli(args, 120000);
    if (had)
        qputenv("FOLIO_KERNELS", old);
    else
        qunsetenv("FOLIO_KERNELS");
    return r;
}

const QStringList kGemmArgs = {QStringLiteral("bench-kernels"),
                               QStringLiteral("--gemm"),
                               QStringLiteral("--rows"),
                               QStringLiteral("64"),
                               QStringLiteral("--cols"),
                               QStringLiteral("256"),
                               QStringLiteral("-t"),
                               QStringLiteral("1")};

} // namespace

class TestKernelPath : public QObject {
    Q_OBJECT
private slots:
    void pathNames() {
        QCOMPARE(QString(kernel_path_name(KernelPath::Reference)), QStringLiteral("reference"));
        const QString avx2 =
            avx2_kernels_available() ? QStringLiteral("avx2") : QStringLiteral("reference");
        QCOMPARE(QString(kernel_path_name(KernelPath::Avx2)), avx2);
        QCOMPARE(QString(kernel_path_name(KernelPath::Auto)),
                 avx512_vnni_kernels_available() ? QStringLiteral("avx512") : avx2);
        qInfo("this machine: %s", kernel_path_name(KernelPath::Auto));
    }

    void benchKernelsNamesThePathAndItsProbe() {
        if (underThreadSanitizer())
            QSKIP("starts folio-cli");
        if (!detect_cpu_features().has_avx2_path())
            QSKIP("no AVX2: only the reference path");
        const CliRun avx2 = runWithKernels("avx2", kGemmArgs);
        QVERIFY2(avx2.exitCode == 0, qPrintable(avx2.err));
        QVERIFY2(avx2.out.contains(QStringLiteral("kernel path that ran: avx2; shares below are of "
                                                  "the maddubs+madd+add ymm (AVX2) peak")),
                 qPrintable(avx2.out));
        QVERIFY(avx2.out.contains(QStringLiteral("avx2 GEMM): ")));
        QVERIFY(!avx2.out.contains(QStringLiteral("avx512")));
        const CliRun native = runWithKernels("", kGemmArgs);
        QVERIFY2(native.exitCode == 0, qPrintable(native.err));
        if (avx512_vnni_kernels_available())
            QVERIFY2(native.out.contains(QStringLiteral(
                         "kernel path that ran: avx512; shares below are of the vpdpbusd zmm")),
                     qPrintable(native.out));
        else
            QVERIFY(native.out.contains(QStringLiteral("kernel path that ran: avx2;")));
        const CliRun portable = runWithKernels("portable", kGemmArgs);
        QVERIFY2(portable.exitCode == 0, qPrintable(portable.err));
        // No int8 probe for the reference path: the machine has none to offer under portable.
        QVERIFY2(portable.out.contains(QStringLiteral("none of the x86 int8 instructions")),
                 qPrintable(portable.out));
    }

    void benchNamesThePath() {
        if (underThreadSanitizer())
            QSKIP("starts folio-cli");
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const QStringList args = {QStringLiteral("bench"),
                                  QStringLiteral("-m"),
                                  dir + QStringLiteral("/models/ds2-qlora-q8_0.gguf"),
                                  QStringLiteral("-p"),
                                  QStringLiteral("16"),
                                  QStringLiteral("-n"),
                                  QStringLiteral("2"),
                                  QStringLiteral("-r"),
                                  QStringLiteral("1"),
                                  QStringLiteral("-t"),
                                  QStringLiteral("1"),
                                  QStringLiteral("--no-bandwidth")};
        const CliRun portable = runWithKernels("portable", args);
        QVERIFY2(portable.exitCode == 0, qPrintable(portable.err));
        QVERIFY2(portable.out.contains(QStringLiteral("kernels: reference")),
                 qPrintable(portable.out));
        if (!detect_cpu_features().has_avx2_path())
            return;
        const CliRun avx2 = runWithKernels("avx2", args);
        QVERIFY2(avx2.exitCode == 0, qPrintable(avx2.err));
        QVERIFY2(avx2.out.contains(QStringLiteral("kernels: avx2")), qPrintable(avx2.out));
    }
};

QTEST_GUILESS_MAIN(TestKernelPath)
#include "test_kernel_path.moc"
