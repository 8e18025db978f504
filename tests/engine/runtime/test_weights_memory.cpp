// Where the weights live (runtime/weights_memory.h): the policy of WeightsMemory::Auto, the
// system facts it reads, and settle_weights in each mode on a real model file.
#include <QtTest>

#include "support/test_support.h"

#include "folio/engine.h"
#include "folio/system_info.h"
#include "gguf/gguf_file.h"
#include "gguf/gguf_writer.h"
#include "kernels/kernel_table.h"
#include "runtime/mapped_residency.h"
#include "runtime/weights_memory.h"

#include <vector>

using namespace folio;

namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;

// A GGUF with one F32 tensor of `values` values (value i = i), at dir/name.
std::string write_model(const QString& dir, const char* name, int64_t values) {
    gguf::Writer w;
    w.set_string("general.architecture", "weightstest");
    std::vector<uint8_t> payload(static_cast<size_t>(values) * 4);
    for (int64_t i = 0; i < values; ++i) {
        const float v = static_cast<float>(i);
        std::memcpy(payload.data() + 4 * i, &v, 4);
    }
    if (!w.add_tensor("w", {values}, DType::F32, payload))
        return {};
    const std::string path = (dir + QLatin1Char('/') + QLatin1String(name)).toStdString();
    return w.write(path) ? path : std::string();
}

float value_at(const gguf::File& f, int64_t i) {
    float v;
    std::memcpy(&v, f.tensors()[0].data + 4 * i, 4);
    return v;
}

} // namespace

class TestWeightsMemory : public QObject {
    Q_OBJECT
private slots:
    void autoCopiesWhenHugePagesAndRoomAllowIt() {
        // Twice the file must be available, and the kernel must give huge pages on request.
        QVERIFY(should_copy_weights(4 * kGiB, 8 * kGiB, "madvise"));
        QVERIFY(should_copy_weights(4 * kGiB, 8 * kGiB, "always"));
        QVERIFY(!should_copy_weights(4 * kGiB, 8 * kGiB - 2, "madvise"));
        QVERIFY(!should_copy_weights(4 * kGiB, 64 * kGiB, "never"));
        QVERIFY(!should_copy_weights(4 * kGiB, 64 * kGiB, "")); // no THP on this system
        QVERIFY(!should_copy_weights(0, 64 * kGiB, "always"));
        // Ram copies whenever the file and 1 GiB fit, huge pages or not.
        QVERIFY(copy_fits(6 * kGiB, 7 * kGiB));
        QVERIFY(!copy_fits(6 * kGiB, 7 * kGiB - 1));
        QVERIFY(!copy_fits(20 * kGiB, 8 * kGiB));
    }

    void readsTheKernelsHugePageMode() {
        QCOMPARE(transparent_huge_pages_mode_in("always [madvise] never\n"),
                 std::string("madvise"));
        QCOMPARE(transparent_huge_pages_mode_in("[always] madvise never"), std::string("always"));
        QCOMPARE(transparent_huge_pages_mode_in("always madvise [never]"), std::string("never"));
        QCOMPARE(transparent_huge_pages_mode_in(""), std::string());
        QCOMPARE(transparent_huge_pages_mode_in("always madvise never"), std::string());
    }

    void countsHugePagesOfARange() {
        // Two anonymous mappings and a file: only those overlapping the range count.
        const std::string smaps = "7f0000000000-7f0000600000 r--p 00000000 00:00 0 \n"
                                  "Rss:                6144 kB\n"
                                  "AnonHugePages:      4096 kB\n"
                                  "7f0000600000-7f0000800000 r--p 00000000 00:00 0 \n"
                                  "AnonHugePages:      2048 kB\n"
                                  "7f1000000000-7f1000001000 r--p 00000000 08:01 12 /m/x.gguf\n"
                                  "AnonHugePages:         0 kB\n";
        const auto* at = reinterpret_cast<const void*>(uintptr_t{0x7f0000100000});
        QCOMPARE(huge_page_bytes_in(smaps, at, 0x100000), uint64_t(4096) * 1024);
        QCOMPARE(huge_page_bytes_in(smaps, at, 0x600000), uint64_t(6144) * 1024);
        const auto* far = reinterpret_cast<const void*>(uintptr_t{0x7f2000000000});
        QCOMPARE(huge_page_bytes_in(smaps, far, 4096), uint64_t(0));
    }

    void settlesEachMode() {
        const QString dir = test::scratchDir(QStringLiteral("weights_memory"));
        const std::string path = write_model(dir, "m.gguf", int64_t{1} << 20); // 4 MiB
        QVERIFY(!path.empty());

        auto mapped = gguf::File::open(path);
        QVERIFY(mapped);
        std::vector<double> reports;
        QVERIFY(settle_weights(
            **mapped, WeightsMemory::Mapped, [&](double x) { reports.push_back(x); }, nullptr));
        QVERIFY(!(*mapped)->in_memory());
        QVERIFY(mapped_resident_bytes(path) >= (uint64_t{4} << 20)); // read through: resident
        QCOMPARE(reports.back(), 1.0);

        auto copied = gguf::File::open(path);
        QVERIFY(copied);
        QVERIFY(settle_weights(**copied, WeightsMemory::Ram, nullptr, nullptr));
        QVERIFY((*copied)->in_memory());
        QCOMPARE(value_at(**copied, 0), 0.0f);
        QCOMPARE(value_at(**copied, 777777), 777777.0f);
        QCOMPARE(value_at(**mapped, 777777), 777777.0f);

        // Cancelled before the first report: neither copied nor complete.
        auto cancelled = gguf::File::open(path);
        QVERIFY(cancelled);
        QVERIFY(!settle_weights(**cancelled, WeightsMemory::Ram, nullptr, [] { return true; }));
        QVERIFY(!(*cancelled)->in_memory());

        // Auto follows the policy on this machine.
        auto automatic = gguf::File::open(path);
        QVERIFY(automatic);
        QVERIFY(settle_weights(**automatic, WeightsMemory::Auto, nullptr, nullptr));
        const bool expect =
            should_copy_weights((*automatic)->file_size(), query_system_info().available_ram_bytes,
                                transparent_huge_pages_mode());
        QCOMPARE((*automatic)->in_memory(), expect);
    }

    void cliBenchSaysWhereTheWeightsAre() {
        // `folio-cli bench --weights ram|mapped` places the weights as asked and says so, and
        // gives one paired decode fraction and one compute probe per timed run.
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const QString cli = test::builtProgram(QStringLiteral("app/folio-cli"));
        QVERIFY2(QFileInfo::exists(cli), qPrintable(cli));
        for (const char* mode : {"ram", "mapped"}) {
            QProcess p;
            p.start(cli,
                    {QStringLiteral("bench"), QStringLiteral("-m"),
                     dir + QStringLiteral("/models/ds2-lite-f32.gguf"), QStringLiteral("-p"),
                     QStringLiteral("0"), QStringLiteral("-n"), QStringLiteral("4"),
                     QStringLiteral("-r"), QStringLiteral("2"), QStringLiteral("-t"),
                     QStringLiteral("2"), QStringLiteral("--weights"), QString::fromLatin1(mode)});
            QVERIFY(p.waitForFinished(120000));
            const QString out = QString::fromUtf8(p.readAllStandardOutput());
            QCOMPARE(p.exitCode(), 0);
            QVERIFY2(out.contains(QLatin1String(std::string(mode) == "ram"
                                                    ? "weights: copied into RAM"
                                                    : "weights: mapped from the file")),
                     qPrintable(out));
            const qsizetype paired = out.indexOf(QLatin1String("paired:"));
            QVERIFY2(paired >= 0, qPrintable(out));
            const QString line = out.mid(paired, out.indexOf(QLatin1Char('\n'), paired) - paired);
            QCOMPARE(line.count(QStringLiteral("GB/s")), 2); // -r 2: two runs, two probes
            QVERIFY2(line.contains(QLatin1String("median")), qPrintable(line));
            // And the int8 compute probe beside each (x86 with AVX2: the AVX2 probe at least).
            if (avx2_kernels_available()) {
                const qsizetype at = out.indexOf(QLatin1String("compute before each run"));
                QVERIFY2(at >= 0, qPrintable(out));
                const QString compute = out.mid(at, out.indexOf(QLatin1Char('\n'), at) - at);
                QCOMPARE(compute.count(QStringLiteral("G MAC/s")), 2);
            }
        }
        QProcess bad;
        bad.start(cli, {QStringLiteral("bench"), QStringLiteral("-m"),
                        dir + QStringLiteral("/models/ds2-lite-f32.gguf"),
                        QStringLiteral("--weights"), QStringLiteral("disk")});
        QVERIFY(bad.waitForFinished(30000));
        QVERIFY(bad.exitCode() != 0);
        QVERIFY(QString::fromUtf8(bad.readAllStandardError())
                    .contains(QLatin1String("--weights must be mapped, ram or auto")));
    }
};

QTEST_GUILESS_MAIN(TestWeightsMemory)
#include "test_weights_memory.moc"
