// The engine service: greedy output equal to llama.cpp's goldens through the scheduler,
// speculation on/off identical, interleaved sessions, cancellation latency, prefix reuse, errors.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "folio/engine.h"
#include "support/engine_helpers.h"
#include "support/test_support.h"

#include <atomic>
#include <cstdio>
#include <mutex>
#include <optional>

using namespace folio;
using namespace folio::test;

namespace {

struct GreedyCase {
    std::vector<int32_t> prompt, generated;
};

std::vector<GreedyCase> greedyCases(const QString& dir, const QString& model) {
    QFile f(dir + QStringLiteral("/goldens/") + model + QStringLiteral(".json"));
    std::vector<GreedyCase> out;
    if (!f.open(QIODevice::ReadOnly))
        return out;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll());
    const QJsonArray greedy = doc.object()[QStringLiteral("greedy")].toArray();
    for (const auto& g : greedy) {
        GreedyCase c;
        for (const auto& v : g.toObject()[QStringLiteral("prompt_tokens")].toArray())
            c.prompt.push_back(v.toInt());
        for (const auto& v : g.toObject()[QStringLiteral("generated")].toArray())
            c.generated.push_back(v.toInt());
        out.push_back(c);
    }
    return out;
}

} // namespace

class TestEngine : public QObject {
    Q_OBJECT
private slots:
    void greedyThroughSchedulerEqualsGoldenWithAndWithoutSpeculation() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        for (const char* name :
             {"ds2-qlora-f32", "ds2-lite-f32", "ds2-yarn-groups-f32", "ds2-vl-text-f32"}) {
            Engine engine;
            ModelSpec spec;
            spec.gguf =
                (dir + QStringLiteral("/models/%1.gguf").arg(QLatin1String(name))).toStdString();
            spec.threads = 2;
            auto facts = engine.load_sync(spec);
            QVERIFY2(facts.has_value(), name);
            QCOMPARE(facts->architecture, std::string("deepseek2"));
            // The device plan (backend/device_plan.h): everything on the CPU.
            QVERIFY2(facts->placement.rfind("cpu: layers 0-", 0) == 0, facts->placement.c_str());
            const SessionId s = engine.create_session();
            for (const auto& c : greedyCases(dir, QLatin1String(name))) {
                for (SpeculationMode mode : {SpeculationMode::Off, SpeculationMode::PromptLookup}) {
                    Collected out;
                    Request r = makeRequest(c.prompt, int(c.generated.size()), out);
                    r.speculation = mode;
                    engine.reset_session(s);
                    engine.wait(engine.submit(s, std::move(r)));
                    QVERIFY2(out.errors.empty(), out.errors.empty() ? "" : out.errors[0].c_str());
                    QVERIFY2(out.ids == c.generated, name);
                    QCOMPARE(out.stats.stop_reason, std::string("length"));
                }
            }
        }
    }

    void statisticsDescribeTheCacheAsSoonAsTheModelIsLoaded() {
        // Issue #48 §11: the Devices pane showed "no model loaded" until the first question:
        // the cache's devices (and their budget) were filled in at the first step only.
        FOLIO_REQUIRE_CONFORMANCE(dir);
        Engine engine;
        ModelSpec spec;
        spec.gguf = (dir + QStringLiteral("/models/ds2-lite-f32.gguf")).toStdString();
        spec.threads = 2;
        spec.cache.ram_budget = 64 << 20;
        QVERIFY(engine.load_sync(spec).has_value());
        const EngineStats st = engine.stats();
        QVERIFY(st.model_loaded);
        QVERIFY(!st.cache.devices.empty());
        QCOMPARE(st.cache.devices[0].name, std::string("ram0"));
        int64_t budget = 0; // over the RAM shards (one per memory node)
        for (const DeviceStats& d : st.cache.devices)
            if (d.kind == DeviceKind::Ram)
                budget += d.budget;
        QVERIFY(budget > (63 << 20) && budget <= (64 << 20));
        QCOMPARE(st.cache.devices[0].weights, int64_t(st.weights_bytes));
        QCOMPARE(st.cache.blocks_ram, int64_t(0));
    }

    void promptLookupDraftsOnRepetitiveText() {
        // The document sequence repeats itself: lookup must draft, verification must keep the
        // greedy output identical, and most drafts should be accepted on quoting text.
        FOLIO_REQUIRE_CONFORMANCE(dir);
        Engine engine;
        ModelSpec spec;
        spec.gguf = (dir + QStringLiteral("/models/ds2-qlora-f32.gguf")).toStdString();
        spec.threads = 2;
        QVERIFY(engine.load_sync(spec).has_value());
        const auto doc = sequenceTokens(dir, QStringLiteral("ds2-qlora-f32"), 2);
        std::vector<int32_t> prompt(doc.begin(), doc.begin() + 200);
        Collected plain, spec_out;
        const SessionId a = engine.create_session(), b = engine.create_session();
        engine.wait(engine.submit(a, makeRequest(prompt, 40, plain)));
        Request r = makeRequest(prompt, 40, spec_out);
        r.speculation = SpeculationMode::PromptLookup;
        engine.wait(engine.submit(b, std::move(r)));
        QCOMPARE(spec_out.ids, plain.ids);
        QVERIFY(spec_out.stats.spec_drafted > 0);
        qInfo("prompt lookup: %lld drafted, %lld accepted", (long long)spec_out.stats.spec_drafted,
              (long long)spec_out.stats.spec_accepted);
    }

    void draftModelSpeculationKeepsGreedyOutput() {
        // ds2-lite shares the tiny vocabulary: as a draft for ds2-qlora it proposes tokens the
        // target often rejects, yet the output must equal the plain greedy golden. With the
        // model as its own draft every proposal is accepted.
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const auto cases = greedyCases(dir, QStringLiteral("ds2-qlora-f32"));
        QVERIFY(!cases.empty());
        for (const char* draftName : {"ds2-lite-f32", "ds2-qlora-f32"}) {
            Engine engine;
            ModelSpec spec;
            spec.gguf = (dir + QStringLiteral("/models/ds2-qlora-f32.gguf")).toStdString();
            spec.draft_gguf =
                (dir + QStringLiteral("/models/%1.gguf").arg(QLatin1String(draftName)))
                    .toStdString();
            spec.threads = 2;
            auto facts = engine.load_sync(spec);
            QVERIFY(facts.has_value());
            QVERIFY(!facts->draft_name.empty());
            const SessionId s = engine.create_session();
            for (const auto& c : cases) {
                Collected out;
                Request r = makeRequest(c.prompt, int(c.generated.size()), out);
                r.speculation = SpeculationMode::DraftModel;
                engine.reset_session(s);
                engine.wait(engine.submit(s, std::move(r)));
                QVERIFY2(out.ids == c.generated, draftName);
                QVERIFY(out.stats.spec_drafted > 0);
                if (std::string(draftName) == "ds2-qlora-f32")
                    QCOMPARE(out.stats.spec_accepted, out.stats.spec_drafted);
            }
        }
        // A draft with another vocabulary is refused at load.
        Engine engine;
        ModelSpec bad;
        bad.gguf = (dir + QStringLiteral("/models/ds2-qlora-f32.gguf")).toStdString();
        bad.draft_gguf = (dir + QStringLiteral("/tokenizer/deepseek-v3-vocab.gguf")).toStdString();
        QVERIFY(!engine.load_sync(bad));
    }

    void twoSessionsInterleaveAndMatchSoloRuns() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        Engine engine;
        ModelSpec spec;
        spec.gguf = (dir + QStringLiteral("/models/ds2-yarn-groups-f32.gguf")).toStdString();
        spec.threads = 2;
        spec.prefill_chunk = 16;         // several prefill steps each, so the two really interleave
        spec.cache.prefix_cache = false; // after the resets, both prefill again
        QVERIFY(engine.load_sync(spec).has_value());
        const auto doc = sequenceTokens(dir, QStringLiteral("ds2-yarn-groups-f32"), 2);
        const std::vector<int32_t> p1(doc.begin(), doc.begin() + 120),
            p2(doc.begin() + 100, doc.begin() + 300);
        Collected solo1, solo2, both1, both2;
        const SessionId s1 = engine.create_session(), s2 = engine.create_session();
        engine.wait(engine.submit(s1, makeRequest(p1, 20, solo1)));
        engine.wait(engine.submit(s2, makeRequest(p2, 20, solo2)));
        engine.reset_session(s1);
        engine.reset_session(s2);
        Request bg = makeRequest(p2, 20, both2);
        bg.interactive = false;
        const RequestId r2 = engine.submit(s2, std::move(bg));
        const RequestId r1 = engine.submit(s1, makeRequest(p1, 20, both1));
        engine.wait(r1);
        engine.wait(r2);
        QCOMPARE(both1.ids, solo1.ids);
        QCOMPARE(both2.ids, solo2.ids);
        QVERIFY(both2.progress.size() >= 2);
    }

    void cancelStopsWithinOneStep() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        Engine engine;
        ModelSpec spec;
        spec.gguf = (dir + QStringLiteral("/models/ds2-qlora-f32.gguf")).toStdString();
        spec.threads = 2;
        spec.prefill_chunk = 32;
        QVERIFY(engine.load_sync(spec).has_value());
        const auto doc = sequenceTokens(dir, QStringLiteral("ds2-qlora-f32"), 2);
        std::vector<int32_t> longPrompt;
        while (longPrompt.size() < 3000)
            longPrompt.insert(longPrompt.end(), doc.begin(), doc.end());
        longPrompt.resize(3000);

        // During prefill: cancel from the first progress report.
        const SessionId s = engine.create_session();
        Collected pre;
        std::atomic<RequestId> rid{0};
        std::atomic<int> reportsAfterCancel{0};
        std::atomic<bool> cancelled{false};
        Request r = makeRequest(longPrompt, 10, pre);
        r.callbacks.on_prefill_progress = [&](int64_t, int64_t, double) {
            if (cancelled)
                ++reportsAfterCancel;
            else {
                cancelled = true;
                while (rid == 0) {
                }
                engine.cancel(rid);
            }
        };
        rid = engine.submit(s, std::move(r));
        engine.wait(rid);
        QCOMPARE(pre.stats.stop_reason, std::string("cancelled"));
        QVERIFY(reportsAfterCancel <= 1);
        QVERIFY(pre.ids.empty());

        // During decode: cancel at the third token.
        Collected dec;
        std::atomic<RequestId> rid2{0};
        Request r2 = makeRequest(std::vector<int32_t>(doc.begin(), doc.begin() + 20), 200, dec);
        std::atomic<int> seen{0};
        r2.callbacks.on_token = [&](std::string_view, int32_t id) {
            if (id >= 0 && ++seen == 3) {
                while (rid2 == 0) {
                }
                engine.cancel(rid2);
            }
        };
        rid2 = engine.submit(s, std::move(r2));
        engine.wait(rid2);
        QCOMPARE(dec.stats.stop_reason, std::string("cancelled"));
        QVERIFY2(seen <= 4, qPrintable(QString::number(seen)));
    }

    // The cache issue's prefix check: a second question in the same session, and a question in a
    // new session that shares the document, reuse cached blocks (KDA: the state kept at a block
    // boundary) and answer exactly what an engine without a prefix cache computes from scratch.
    void secondQuestionReusesThePrefix_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("minSharedReuse"); // tokens a new session must get from the cache
        QTest::newRow("deepseek2") << QStringLiteral("ds2-vl-text-f32") << 192;
        QTest::newRow("kimi-linear") << QStringLiteral("kimi-linear-f32") << 128;
        QTest::newRow("deepseek32") << QStringLiteral("ds32-f32") << 192;
    }
    void secondQuestionReusesThePrefix() {
        QFETCH(QString, model);
        QFETCH(int, minSharedReuse);
        FOLIO_REQUIRE_CONFORMANCE(dir);
        ModelSpec spec;
        spec.gguf =
            (dir + QStringLiteral("/models/") + model + QStringLiteral(".gguf")).toStdString();
        spec.threads = 2;
        ModelSpec plain = spec;
        plain.cache.prefix_cache = false;
        Engine engine, reference;
        QVERIFY(engine.load_sync(spec).has_value());
        QVERIFY(reference.load_sync(plain).has_value());
        const auto doc = sequenceTokens(dir, model, 2);
        std::vector<int32_t> first(doc.begin(), doc.begin() + 250);
        std::vector<int32_t> second(doc.begin(), doc.begin() + 300); // same document, more text
        // Same document, another question: diverges at token 200.
        std::vector<int32_t> other(doc.begin(), doc.begin() + 200);
        other.insert(other.end(), doc.begin() + 10, doc.begin() + 30);
        const SessionId s = engine.create_session();
        Collected a, b, c, scratchB, scratchC;
        engine.wait(engine.submit(s, makeRequest(first, 5, a)));
        engine.wait(engine.submit(s, makeRequest(second, 12, b)));
        QVERIFY2(b.stats.reused_tokens >= 192, qPrintable(QString::number(b.stats.reused_tokens)));
        const SessionId t = engine.create_session();
        engine.wait(engine.submit(t, makeRequest(other, 12, c)));
        QVERIFY2(c.stats.reused_tokens >= minSharedReuse && c.stats.reused_tokens <= 200,
                 qPrintable(QString::number(c.stats.reused_tokens)));
        const SessionId r = reference.create_session();
        reference.wait(reference.submit(r, makeRequest(second, 12, scratchB)));
        reference.reset_session(r);
        reference.wait(reference.submit(r, makeRequest(other, 12, scratchC)));
        QCOMPARE(scratchB.stats.reused_tokens, int64_t(0));
        QCOMPARE(scratchC.stats.reused_tokens, int64_t(0));
        QCOMPARE(b.ids, scratchB.ids);
        QCOMPARE(c.ids, scratchC.ids);
        const EngineStats st = engine.stats();
        QVERIFY(st.prefix_hit_tokens >= 192 + minSharedReuse);
        QVERIFY(st.cache.hits >= minSharedReuse / 64);
        QCOMPARE(st.cache.last_prefix_hit_tokens, c.stats.reused_tokens);
        QCOMPARE(st.block_map.size(), size_t(2));
        QVERIFY(!st.cache.devices.empty());
        QCOMPARE(st.cache.devices[0].name, std::string("ram0"));
        QCOMPARE(st.cache.devices[0].weights, int64_t(st.weights_bytes));
        QVERIFY(st.cache.devices[0].kv > 0 && st.cache.devices[0].scratch > 0);
        QVERIFY(st.cache.blocks_ram > 0);
        // Session t's leading blocks are shared with session s (and the prefix cache).
        for (const SessionBlockMap& m : st.block_map)
            if (m.session == t) {
                QVERIFY(m.tokens >= 220);
                QVERIFY(m.blocks.at(0).shared);
            }
    }

    void loadReportsProgressAndASecondLoadSupersedesTheFirst() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        Engine engine;
        ModelSpec a, b;
        a.gguf = (dir + QStringLiteral("/models/ds2-qlora-f32.gguf")).toStdString();
        b.gguf = (dir + QStringLiteral("/models/ds2-lite-f32.gguf")).toStdString();
        std::mutex mu;
        std::vector<double> progress;
        std::optional<Expected<ModelFacts>> first;
        engine.load(
            a,
            [&](Expected<ModelFacts> r) {
                std::lock_guard lk(mu);
                first.emplace(std::move(r));
            },
            [&](double f) {
                std::lock_guard lk(mu);
                progress.push_back(f);
            });
        auto second = engine.load_sync(b); // queued behind or superseding the first
        QVERIFY(second.has_value());
        QVERIFY(second->path.find("ds2-lite-f32") != std::string::npos);
        std::lock_guard lk(mu);
        QVERIFY(first.has_value()); // it finished (loaded) or was cancelled: never left hanging
        if (first->has_value()) {
            QVERIFY(!progress.empty());
            QCOMPARE(progress.back(), 1.0);
        } else {
            QCOMPARE(first->error().code, ErrorCode::Cancelled);
        }
        QVERIFY(engine.loaded());
        QVERIFY(engine.stats().weights_bytes > 1000000);
    }

    void imagesInMessagesMatchTheVisionGolden() {
        // The Kimi-VL pair of the conformance data through the Engine: the chart in a user
        // message, rendered with the Kimi-VL template, must give llama.cpp's 24 greedy tokens.
        FOLIO_REQUIRE_CONFORMANCE(dir);
        QFile f(dir + QStringLiteral("/goldens/vision.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll());
        std::vector<int32_t> expected;
        for (const auto& v : doc.object()[QStringLiteral("generated")].toArray())
            expected.push_back(v.toInt());
        QCOMPARE(expected.size(), size_t(24));
        Engine engine;
        ModelSpec spec;
        spec.gguf = (dir + QStringLiteral("/models/ds2-vl-text-f32.gguf")).toStdString();
        spec.mmproj = (dir + QStringLiteral("/models/kimivl-mmproj-f32.gguf")).toStdString();
        spec.threads = 2;
        QVERIFY(engine.load_sync(spec).has_value());
        const SessionId s = engine.create_session();
        Message m;
        m.role = "user";
        m.content = "What does this chart show?";
        m.images.push_back({(dir + QStringLiteral("/models/chart.png")).toStdString(), 0, 0, {}});
        Collected out;
        Request r = makeRequest({}, 24, out);
        r.messages = {m};
        engine.wait(engine.submit(s, r));
        QVERIFY2(out.errors.empty(), out.errors.empty() ? "" : out.errors[0].c_str());
        QCOMPARE(out.stats.prompt_tokens, int64_t(92)); // 7 + 48 image rows + 37, the vision golden
        QCOMPARE(out.ids, expected);
        // Asking again about the same picture reuses its cached rows (content-hash keys).
        Collected again;
        Request r2 = makeRequest({}, 4, again);
        Message m2 = m;
        m2.content = "What does this chart show? Be brief.";
        r2.messages = {m2};
        engine.wait(engine.submit(s, r2));
        QVERIFY2(again.stats.reused_tokens >= 55,
                 qPrintable(QString::number(again.stats.reused_tokens)));
        // Without a projector, images are a clear error.
        Engine textOnly;
        ModelSpec t;
        t.gguf = spec.gguf;
        QVERIFY(textOnly.load_sync(t).has_value());
        Collected noVision;
        Request r3 = makeRequest({}, 2, noVision);
        r3.messages = {m};
        const SessionId s3 = textOnly.create_session();
        textOnly.wait(textOnly.submit(s3, r3));
        QVERIFY(!noVision.errors.empty() && noVision.errors[0].find("mmproj") != std::string::npos);
    }

    void aProjectorThatDoesNotFitIsSetAside() {
        // Issue #48 §4: a projector remembered from another model must not stop this one from
        // loading: it is set aside with a note, and the model answers text.
        FOLIO_REQUIRE_CONFORMANCE(dir);
        ModelSpec spec;
        spec.gguf = (dir + QStringLiteral("/models/ds2-lite-f32.gguf")).toStdString();
        spec.mmproj = (dir + QStringLiteral("/models/kimivl-mmproj-f32.gguf")).toStdString();
        spec.threads = 2;
        Engine engine;
        const auto facts = engine.load_sync(spec);
        QVERIFY2(facts.has_value(), facts ? "" : facts.error().to_string().c_str());
        QVERIFY2(facts->projector_note.find("projects to") != std::string::npos,
                 facts->projector_note.c_str());
        QVERIFY(facts->projector_fingerprint.empty());
        Collected text;
        engine.wait(engine.submit(engine.create_session(), makeRequest({1, 2, 3}, 2, text)));
        QVERIFY(text.errors.empty());
        QCOMPARE(text.ids.size(), size_t(2));
        // Images are refused with the usual message.
        Message m;
        m.role = "user";
        m.content = "What does this chart show?";
        m.images.push_back({(dir + QStringLiteral("/models/chart.png")).toStdString(), 0, 0, {}});
        Collected images;
        Request r = makeRequest({}, 2, images);
        r.messages = {m};
        engine.wait(engine.submit(engine.create_session(), r));
        QVERIFY(!images.errors.empty() && images.errors[0].find("mmproj") != std::string::npos);

        // A file that is no projector at all: set aside too, its problem named.
        QTemporaryDir tmp;
        const std::string junk = (tmp.path() + QStringLiteral("/junk-mmproj.gguf")).toStdString();
        {
            std::FILE* f = std::fopen(junk.c_str(), "wb");
            QVERIFY(f);
            std::fputs("not a gguf file", f);
            std::fclose(f);
        }
        ModelSpec bad = spec;
        bad.mmproj = junk;
        Engine other;
        const auto badFacts = other.load_sync(bad);
        QVERIFY(badFacts.has_value());
        QVERIFY2(badFacts->projector_note.find("junk-mmproj.gguf") != std::string::npos,
                 badFacts->projector_note.c_str());
        // With a projector that fits there is no note.
        ModelSpec good;
        good.gguf = (dir + QStringLiteral("/models/ds2-vl-text-f32.gguf")).toStdString();
        good.mmproj = spec.mmproj;
        good.threads = 2;
        Engine vision;
        const auto goodFacts = vision.load_sync(good);
        QVERIFY(goodFacts.has_value());
        QVERIFY(goodFacts->projector_note.empty());
        QVERIFY(!goodFacts->projector_fingerprint.empty());
    }

    void errorsArriveThroughCallbacks() {
        Engine engine;
        Collected noModel;
        const SessionId s = engine.create_session();
        engine.wait(engine.submit(s, makeRequest({1, 2, 3}, 4, noModel)));
        QCOMPARE(noModel.errors.size(), size_t(1));
        QVERIFY(noModel.errors[0].find("no model") != std::string::npos);
        Collected unknown;
        QCOMPARE(engine.submit(999, makeRequest({1}, 1, unknown)), RequestId(0));
        QCOMPARE(unknown.errors.size(), size_t(1));
        ModelSpec missing;
        missing.gguf = "/nonexistent/model.gguf";
        auto bad = engine.load_sync(missing);
        QVERIFY(!bad);
        QVERIFY(!engine.loaded());

        FOLIO_REQUIRE_CONFORMANCE(dir);
        ModelSpec spec;
        spec.gguf = (dir + QStringLiteral("/models/ds2-lite-f32.gguf")).toStdString();
        spec.context = 64;
        QVERIFY(engine.load_sync(spec).has_value());
        Collected tooLong, badToken;
        engine.wait(engine.submit(s, makeRequest(std::vector<int32_t>(100, 5), 4, tooLong)));
        QVERIFY(!tooLong.errors.empty() && tooLong.errors[0].find("context") != std::string::npos);
        engine.wait(engine.submit(s, makeRequest({5, 99999}, 4, badToken)));
        QVERIFY(!badToken.errors.empty());
        // The engine still works afterwards.
        Collected ok;
        engine.wait(engine.submit(s, makeRequest({5, 6, 7}, 3, ok)));
        QCOMPARE(ok.ids.size(), size_t(3));
    }
};

QTEST_APPLESS_MAIN(TestEngine)
#include "test_engine.moc"
