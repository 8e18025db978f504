// Engine foundations: error values, Expected propagation, system facts, dtype table.
#include <QtTest>

#include "folio/error.h"
#include "folio/system_info.h"
#include "folio/version.h"
#include "kernels/weight_rows.h"
#include "tensor/dtype.h"

using namespace folio;

namespace {

Expected<int> parsePositive(int v) {
    if (v <= 0)
        return make_error(ErrorCode::InvalidArgument, "value " + std::to_string(v) + " <= 0");
    return v;
}

Expected<int> doubled(int v) {
    FOLIO_TRY(x, parsePositive(v));
    return 2 * x;
}

Status checkBoth(int a, int b) {
    FOLIO_CHECK(parsePositive(a));
    FOLIO_CHECK(parsePositive(b));
    return {};
}

} // namespace

class TestEngineCore : public QObject {
    Q_OBJECT
private slots:
    void kernelsCanBeForcedDownForMeasurement() {
        const CpuFeatures native = detect_cpu_features();
        qputenv("FOLIO_KERNELS", "avx2");
        const CpuFeatures avx2 = detect_cpu_features();
        qputenv("FOLIO_KERNELS", "portable");
        const CpuFeatures portable = detect_cpu_features();
        qunsetenv("FOLIO_KERNELS");
        QVERIFY(!avx2.has_avx512_vnni_path());
        QCOMPARE(avx2.has_avx2_path(), native.has_avx2_path());
        QVERIFY(!portable.has_avx2_path());
        QVERIFY(describe_kernel_path(portable).find("portable") == 0);
        QCOMPARE(detect_cpu_features().has_avx512_vnni_path(), native.has_avx512_vnni_path());
    }
    void errorToStringNamesCodeAndMessage() {
        Error e = make_error(ErrorCode::Format, "model.gguf: bad magic at byte 0");
        QCOMPARE(QString::fromStdString(e.to_string()),
                 QStringLiteral("format error: model.gguf: bad magic at byte 0"));
        QCOMPARE(QString::fromStdString(make_error(ErrorCode::Cancelled, "").to_string()),
                 QStringLiteral("cancelled"));
    }
    void expectedCarriesValueOrError() {
        auto ok = doubled(21);
        QVERIFY(ok.has_value());
        QCOMPARE(*ok, 42);
        auto bad = doubled(-3);
        QVERIFY(!bad);
        QCOMPARE(bad.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(QString::fromStdString(bad.error().message), QStringLiteral("value -3 <= 0"));
    }
    void statusPropagatesFirstFailure() {
        QVERIFY(checkBoth(1, 2).has_value());
        Status s = checkBoth(1, -7);
        QVERIFY(!s);
        QVERIFY(QString::fromStdString(s.error().message).contains(QStringLiteral("-7")));
    }
    void versionMatchesProject() {
        QCOMPARE(QString::fromLatin1(version_string()), QStringLiteral(FOLIO_VERSION_STRING));
        QVERIFY(QString::fromLatin1(version_string()).count(QLatin1Char('.')) == 2);
    }
    void systemInfoIsPlausible() {
        SystemInfo info = query_system_info();
        QVERIFY(info.logical_cores >= 1);
        QVERIFY(info.total_ram_bytes > 64ull * 1024 * 1024);
        QVERIFY(info.available_ram_bytes <= info.total_ram_bytes);
        QVERIFY(!info.memory_nodes.empty());
        QVERIFY(!info.cpu_model.empty());
    }
    void dtypeTableMatchesGgufSpec() {
        // ggml_type (ggml/include/ggml.h): (id, block elements, block bytes)
        struct Row {
            uint32_t id, block, bytes;
        };
        const Row rows[] = {{0, 1, 4},      {1, 1, 2},      {2, 32, 18}, {8, 32, 34},
                            {12, 256, 144}, {14, 256, 210}, {30, 1, 2},  {39, 32, 17}};
        for (const Row& r : rows) {
            auto t = dtype_traits(r.id);
            QVERIFY2(t.has_value(), qPrintable(QString::number(r.id)));
            QCOMPARE(t->block_size, r.block);
            QCOMPARE(t->block_bytes, r.bytes);
            QVERIFY(dtype_is_computable(t->type));
        }
        QVERIFY(!dtype_traits(4).has_value()); // retired id
        QVERIFY(!dtype_traits(1000).has_value());
        QCOMPARE(dtype_row_bytes(DType::Q4_K, 4096), size_t(16 * 144));
        QCOMPARE(dtype_from_name("MXFP4").value(), DType::MXFP4);
        QVERIFY(!dtype_from_name("q9_9").has_value());
    }
};

QTEST_APPLESS_MAIN(TestEngineCore)
#include "test_engine_core.moc"
