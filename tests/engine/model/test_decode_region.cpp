// Decode as one parallel region per token (engine/model/decoder/decode_region.h) against the
// region per kernel it replaces: the same logits bit for bit, step after step, below and above
// the 128 keys where MLA's attention switches from splitting the heads to splitting the keys, on
// both kernel paths and on 2 and 3 threads, for MLA and KDA layers; which models take it; and a
// failed allocation inside the region failing the step instead of hanging a barrier or ending the
// process.
#include <QtTest>

#include "core/alloc_faults.h"
#include "model/decoder/decode_region.h"
#include "model/decoder/decoder_model.h"
#include "support/goldens.h"
#include "support/test_support.h"

#include <cstring>
#include <new>

using namespace folio;

namespace {

QString modelPath(const QString& dir, const QString& name) {
    const QString quant = dir + QStringLiteral("/quant/models/") + name + QStringLiteral(".gguf");
    if (QFile::exists(quant))
        return quant;
    return dir + QStringLiteral("/models/") + name + QStringLiteral(".gguf");
}

std::vector<int32_t> someTokens(const DecoderModel& m, int n) {
    std::vector<int32_t> tokens;
    for (int i = 0; i < n; ++i)
        tokens.push_back(static_cast<int32_t>((i * 7919 + 11) % m.config.n_vocab));
    return tokens;
}

} // namespace

class TestDecodeRegion : public QObject {
    Q_OBJECT

private slots:
    void regionEqualsRegionPerKernel_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("avx2");
        QTest::addColumn<int>("threads");
        // No q LoRA and a dense first layer (ds2-lite); q LoRA with Q8_0 / MXFP4 experts;
        // grouped routing with YaRN; K-quants (Q4_K / Q6_K rows, Q5_0 W_UK); KDA layers
        // beside NoPE MLA ones (kimi-linear, head size 32).
        for (const char* m :
             {"ds2-lite-f32", "ds2-qlora-q8_0", "ds2-qlora-mxfp4moe", "ds2-yarn-groups-f32",
              "qa-ds2-q4_k_m", "kimi-linear-f32", "kimi-linear-q8_0", "kimi-linear-mxfp4moe"})
            for (bool avx2 : {false, true})
                for (int threads : {2, 3})
                    QTest::addRow("%s %s %d threads", m, avx2 ? "avx2" : "native", threads)
                        << QString::fromLatin1(m) << avx2 << threads;
    }
    void regionEqualsRegionPerKernel() {
        QFETCH(QString, model);
        QFETCH(bool, avx2);
        QFETCH(int, threads);
        FOLIO_REQUIRE_CONFORMANCE(dir);
        auto m = test::loadDecoder(modelPath(dir, model));
        QVERIFY(m);
        // A 3-token prompt, then 140 one-token steps: 4 .. 143 keys, across kMlaSplitKeys.
        const std::vector<int32_t> tokens = someTokens(*m, 143);
        EvalOptions region, forked;
        region.kernels.n_threads = forked.kernels.n_threads = threads;
        region.kernels.path = forked.kernels.path = avx2 ? KernelPath::Avx2 : KernelPath::Auto;
        forked.decode_region = false;
        QVERIFY(decode_region_fits(*m, 1, region));
        QVERIFY(!decode_region_fits(*m, 1, forked));
        DecoderState sr = make_decoder_state(m->config, 160),
                     sf = make_decoder_state(m->config, 160);
        DecoderScratch cr, cf;
        std::vector<float> lr, lf;
        QVERIFY(decoder_eval(*m, sr, cr, tokens.data(), 3, region, lr).has_value());
        QVERIFY(decoder_eval(*m, sf, cf, tokens.data(), 3, forked, lf).has_value());
        for (size_t i = 3; i < tokens.size(); ++i) {
            QVERIFY(decoder_eval(*m, sr, cr, tokens.data() + i, 1, region, lr).has_value());
            QVERIFY(decoder_eval(*m, sf, cf, tokens.data() + i, 1, forked, lf).has_value());
            QCOMPARE(lr.size(), size_t(m->config.n_vocab));
            QCOMPARE(lf.size(), lr.size());
            QVERIFY2(
                std::memcmp(lr.data(), lf.data(), lr.size() * sizeof(float)) == 0,
                qPrintable(QStringLiteral("logits differ at step %1 (%2 keys)").arg(i).arg(i + 1)));
        }
        QCOMPARE(sr.size(), int64_t(143));
        QCOMPARE(sf.size(), int64_t(143));
    }

    void fitsOnlyWhereEveryLayerCan() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        EvalOptions opt;
        opt.kernels.n_threads = 2;
        auto ds2 = test::loadDecoder(modelPath(dir, QStringLiteral("ds2-qlora-q8_0")));
        QVERIFY(ds2);
        QVERIFY(decode_region_fits(*ds2, 1, opt));
        QVERIFY(!decode_region_fits(*ds2, 2, opt)); // a batch: the prefill kernels
        EvalOptions one = opt;
        one.kernels.n_threads = 1;
        QVERIFY(!decode_region_fits(*ds2, 1, one)); // one thread: no region at all
        EvalOptions naive = opt;
        naive.mla = MlaForm::Naive;
        QVERIFY(!decode_region_fits(*ds2, 1, naive));
        // KDA layers take part in their recurrent form only; DSA's indexer (deepseek32) keeps
        // a region per kernel.
        auto kimi = test::loadDecoder(modelPath(dir, QStringLiteral("kimi-linear-f32")));
        QVERIFY(kimi);
        QVERIFY(decode_region_fits(*kimi, 1, opt));
        EvalOptions chunked = opt;
        chunked.kda = KdaForm::Chunked;
        QVERIFY(!decode_region_fits(*kimi, 1, chunked));
        auto ds32 = test::loadDecoder(modelPath(dir, QStringLiteral("ds32-f32")));
        QVERIFY(ds32);
        QVERIFY(!decode_region_fits(*ds32, 1, opt));
    }

    void allocationFailureInTheRegionFailsTheStep() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        auto m = test::loadDecoder(modelPath(dir, QStringLiteral("ds2-qlora-q8_0")));
        QVERIFY(m);
        const std::vector<int32_t> tokens = someTokens(*m, 4);
        EvalOptions opt;
        opt.kernels.n_threads = 2;
        DecoderState state = make_decoder_state(m->config, 16);
        DecoderScratch s; // new: the FFN's converted inputs are added in the region
        std::vector<float> logits;
        const size_t before = region_allocation_faults();
        arm_region_allocation_faults(1);
        bool threw = false;
        try {
            (void)decoder_eval(*m, state, s, tokens.data(), 1, opt, logits);
        } catch (const std::bad_alloc&) {
            threw = true; // Engine::step turns it into a failed request ("out of memory")
        }
        arm_region_allocation_faults(0);
        QVERIFY(threw);
        QVERIFY2(region_allocation_faults() > before, "the fault point was not reached");
        // The same scratch serves the next steps, with the numbers of the forked kernels.
        DecoderState fresh = make_decoder_state(m->config, 16),
                     ref = make_decoder_state(m->config, 16);
        DecoderScratch sr;
        EvalOptions forked = opt;
        forked.decode_region = false;
        std::vector<float> expected;
        for (int32_t t : tokens) {
            QVERIFY(decoder_eval(*m, fresh, s, &t, 1, opt, logits).has_value());
            QVERIFY(decoder_eval(*m, ref, sr, &t, 1, forked, expected).has_value());
            QCOMPARE(logits.size(), size_t(m->config.n_vocab));
            QVERIFY(std::memcmp(logits.data(), expected.data(), logits.size() * sizeof(float)) ==
                    0);
        }
    }
};

QTEST_APPLESS_MAIN(TestDecodeRegion)
#include "test_decode_region.moc"
