// KV-cache snapshots through the Engine: a document's cache saved by one engine and loaded by
// another answers the next question exactly as a from-scratch run does, without prefilling the
// document again; corrupt, truncated, mismatched and missing snapshots are refused with a clear
// message and the session goes on (computing from scratch). The two-process round trip through
// folio-cli is in tests/tools (test_cli_cache).
#include "folio/engine.h"
#include "support/engine_helpers.h"
#include "support/test_support.h"

#include <QFile>
#include <QTest>

using namespace folio;
using namespace folio::test;

namespace {

ModelSpec specFor(const QString& dir, const QString& model) {
    ModelSpec spec;
    spec.gguf = (dir + QStringLiteral("/models/") + model + QStringLiteral(".gguf")).toStdString();
    spec.threads = 2;
    return spec;
}

// The answer to `prompt` from an engine that has nothing cached.
std::vector<int32_t> fromScratch(const ModelSpec& spec, const std::vector<int32_t>& prompt, int n) {
    ModelSpec plain = spec;
    plain.cache.prefix_cache = false;
    Engine e;
    if (!e.load_sync(plain))
        return {};
    Collected c;
    e.wait(e.submit(e.create_session(), makeRequest(prompt, n, c)));
    return c.ids;
}

bool flipByte(const QString& path, qint64 offset) {
    QFile f(path);
    if (!f.open(QIODevice::ReadWrite))
        return false;
    f.seek(offset);
    char c = 0;
    f.getChar(&c);
    f.seek(offset);
    return f.putChar(static_cast<char>(c ^ 0x5a));
}

} // namespace

class TestSnapshots : public QObject {
    Q_OBJECT
private slots:
    void saveInOneEngineAnswerInAnother_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("deepseek2") << QStringLiteral("ds2-lite-f32");
        QTest::newRow("kimi-linear") << QStringLiteral("kimi-linear-f32");
        QTest::newRow("deepseek32") << QStringLiteral("ds32-f32");
    }
    void saveInOneEngineAnswerInAnother() {
        QFETCH(QString, model);
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const ModelSpec spec = specFor(dir, model);
        const std::vector<int32_t> seq = sequenceTokens(dir, model, 2);
        const std::vector<int32_t> doc(seq.begin(), seq.begin() + 200);
        std::vector<int32_t> question = doc;
        question.insert(question.end(), seq.begin() + 250, seq.begin() + 270);
        const QString path =
            scratchDir(QStringLiteral("snap-") + model) + QStringLiteral("/doc.kv");

        {
            Engine a;
            QVERIFY(a.load_sync(spec).has_value());
            const SessionId s = a.create_session();
            Collected c;
            a.wait(a.submit(s, makeRequest(doc, 1, c))); // prefill the document
            auto saved = a.save_snapshot(s, path.toStdString());
            QVERIFY2(saved.has_value(), saved ? "" : saved.error().to_string().c_str());
            QCOMPARE(saved->tokens, int64_t(200));
            QVERIFY(saved->bytes > 0);
        }
        Engine b;
        QVERIFY(b.load_sync(spec).has_value());
        const SessionId s = b.create_session();
        auto loaded = b.load_snapshot(s, path.toStdString());
        QVERIFY2(loaded.has_value(), loaded ? "" : loaded.error().to_string().c_str());
        QCOMPARE(loaded->tokens, int64_t(200));
        Collected answer;
        b.wait(b.submit(s, makeRequest(question, 10, answer)));
        QCOMPARE(answer.stats.reused_tokens, int64_t(200));
        QCOMPARE(answer.ids, fromScratch(spec, question, 10));
    }

    void badSnapshotsAreRefusedAndTheSessionGoesOn() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const QString model = QStringLiteral("kimi-linear-f32");
        const ModelSpec spec = specFor(dir, model);
        const std::vector<int32_t> seq = sequenceTokens(dir, model, 2);
        const std::vector<int32_t> doc(seq.begin(), seq.begin() + 150);
        std::vector<int32_t> question = doc;
        question.insert(question.end(), seq.begin() + 200, seq.begin() + 210);
        const std::vector<int32_t> expected = fromScratch(spec, question, 8);
        const QString folder = scratchDir(QStringLiteral("snap-bad"));
        const QString good = folder + QStringLiteral("/good.kv");

        Engine e;
        QVERIFY(e.load_sync(spec).has_value());
        const SessionId s = e.create_session();
        Collected first;
        e.wait(e.submit(s, makeRequest(doc, 1, first)));
        QVERIFY(e.save_snapshot(s, good.toStdString()).has_value());
        const qint64 size = QFileInfo(good).size();

        struct Case {
            QString name;
            std::function<bool(const QString&)> damage;
            QString expect; // in the error message
        };
        const std::vector<Case> cases = {
            {QStringLiteral("corrupt"), [&](const QString& p) { return flipByte(p, size / 2); },
             QStringLiteral("checksum")},
            {QStringLiteral("truncated"),
             [&](const QString& p) { return QFile(p).resize(size - 100); },
             QStringLiteral("truncated")},
            {QStringLiteral("deleted"), [](const QString& p) { return QFile::remove(p); },
             QStringLiteral("not")},
            {QStringLiteral("not a snapshot"),
             [](const QString& p) {
                 QFile f(p);
                 return f.open(QIODevice::WriteOnly) && f.write("hello") == 5;
             },
             QStringLiteral("magic")},
        };
        for (const Case& c : cases) {
            const QString path = folder + QLatin1Char('/') + c.name + QStringLiteral(".kv");
            QVERIFY(QFile::copy(good, path));
            QVERIFY(c.damage(path));
            const SessionId t = e.create_session();
            auto loaded = e.load_snapshot(t, path.toStdString());
            QVERIFY2(!loaded.has_value(), qPrintable(c.name));
            const QString msg = QString::fromStdString(loaded.error().to_string());
            QVERIFY2(msg.contains(c.expect, Qt::CaseInsensitive), qPrintable(msg));
            Collected answer; // the session still works: the prompt is computed from scratch
            e.reset_session(s);
            e.wait(e.submit(t, makeRequest(question, 8, answer)));
            QVERIFY(answer.errors.empty());
            QCOMPARE(answer.ids, expected);
        }

        // Another model file, or another kv type: refused, with what differs.
        Engine other;
        QVERIFY(other.load_sync(specFor(dir, QStringLiteral("ds2-lite-f32"))).has_value());
        auto wrongModel = other.load_snapshot(other.create_session(), good.toStdString());
        QVERIFY(!wrongModel.has_value());
        QVERIFY2(QString::fromStdString(wrongModel.error().message)
                     .contains(QStringLiteral("another model")),
                 wrongModel.error().message.c_str());
        ModelSpec f16 = spec;
        f16.cache.kv_type = KvType::F16;
        Engine half;
        QVERIFY(half.load_sync(f16).has_value());
        auto wrongType = half.load_snapshot(half.create_session(), good.toStdString());
        QVERIFY(!wrongType.has_value());
        QVERIFY2(QString::fromStdString(wrongType.error().message)
                     .contains(QStringLiteral("kv type f32")),
                 wrongType.error().message.c_str());
        // A session that holds nothing has nothing to save.
        QVERIFY(
            !e.save_snapshot(e.create_session(), (folder + QStringLiteral("/x.kv")).toStdString()));
    }

    // A snapshot as a document cache (issue 22 §4): the system turn read ahead without the
    // generation prompt and saved; after a "restart" (another engine) the question's prompt
    // starts with the snapshot's tokens and reuses all of them. A bad snapshot loaded into a
    // session that already holds the document changes nothing there.
    void documentPrefixSnapshotServesTheQuestionAfterARestart() {
        ModelSpec spec;
        spec.gguf =
            builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf")).toStdString();
        spec.threads = 2;
        std::string doc;
        for (int i = 1; i <= 8; ++i)
            doc += "[page " + std::to_string(i) + "] Valve V-" + std::to_string(i * 3) +
                   " opens at " + std::to_string(i + 1) + " bar.\n";
        const Message system{"system", doc, {}, {}};
        const Message user{"user", "Which valve opens at 5 bar?", {}, {}};
        const QString folder = scratchDir(QStringLiteral("snap-doc"));
        const QString path = folder + QStringLiteral("/doc.kv");
        int64_t docTokens = 0;
        {
            Engine a;
            QVERIFY(a.load_sync(spec).has_value());
            const SessionId s = a.create_session();
            Collected read;
            Request r = makeRequest({}, 0, read);
            r.messages = {system};
            r.generation_prompt = false;
            r.interactive = false;
            a.wait(a.submit(s, std::move(r)));
            QVERIFY(read.errors.empty());
            docTokens = read.stats.prompt_tokens;
            QVERIFY(docTokens > 100);
            auto saved = a.save_snapshot(s, path.toStdString());
            QVERIFY2(saved.has_value(), saved ? "" : saved.error().to_string().c_str());
            QCOMPARE(saved->tokens, docTokens);
        }
        Engine b;
        QVERIFY(b.load_sync(spec).has_value());
        const SessionId s = b.create_session();
        QVERIFY(b.load_snapshot(s, path.toStdString()).has_value());
        Collected answer;
        Request q = makeRequest({}, 6, answer);
        q.messages = {system, user};
        b.wait(b.submit(s, q));
        QVERIFY(answer.errors.empty());
        QCOMPARE(answer.stats.reused_tokens, docTokens);

        // A corrupt snapshot into the same session: refused, the session keeps its cache.
        const QString bad = folder + QStringLiteral("/bad.kv");
        QVERIFY(QFile::copy(path, bad));
        QVERIFY(flipByte(bad, QFileInfo(bad).size() / 2));
        auto refused = b.load_snapshot(s, bad.toStdString());
        QVERIFY(!refused.has_value());
        QVERIFY2(refused.error().message.find("checksum") != std::string::npos,
                 refused.error().message.c_str());
        Collected again;
        Request q2 = q;
        q2.callbacks = makeRequest({}, 6, again).callbacks;
        b.wait(b.submit(s, q2));
        QVERIFY(again.stats.reused_tokens >= docTokens);
        QCOMPARE(again.ids, answer.ids);
    }
};

QTEST_GUILESS_MAIN(TestSnapshots)
#include "test_snapshots.moc"
