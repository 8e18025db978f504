// What document caches need from the engine (issue 22 §4): exact prompt counts (count_tokens
// equals what submit reports), prefill-only requests whose prompt the next question reuses, a
// document prefix ({system}, without the generation prompt) that is a token prefix of the
// question's prompt, a cancel that keeps the chunks already read, background reading that never
// holds up an interactive answer, and a snapshot that a reset session cannot get back stale.
#include <QtTest>

#include "folio/engine.h"
#include "runtime/decoder_adapter.h"
#include "runtime/session_cache.h"
#include "support/engine_helpers.h"
#include "support/test_support.h"

#include <atomic>
#include <mutex>
#include <random>

using namespace folio;
using namespace folio::test;

namespace {

QString demoModel() {
    return builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
}

ModelSpec demoSpec(int prefillChunk = 512) {
    ModelSpec spec;
    spec.gguf = demoModel().toStdString();
    spec.threads = 2;
    spec.prefill_chunk = prefillChunk;
    return spec;
}

std::string documentText(int paragraphs) {
    std::string s;
    for (int i = 0; i < paragraphs; ++i)
        s += "[page " + std::to_string(i + 1) + "] Pump " + std::to_string(i * 7 % 13) +
             " runs at " + std::to_string(20 + i) + " bar; the valve closes after " +
             std::to_string(i % 5 + 1) + " s.\n";
    return s;
}

std::vector<int32_t> randomTokens(int n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int32_t> tok(10, 300);
    std::vector<int32_t> v(static_cast<size_t>(n));
    for (auto& t : v)
        t = tok(rng);
    return v;
}

Request chat(std::vector<Message> messages, int maxTokens, Collected& out) {
    Request r = makeRequest({}, maxTokens, out);
    r.messages = std::move(messages);
    return r;
}

// Submits `r` in a fresh session and returns what it reported.
RequestStats submitted(Engine& e, Request r, Collected& out) {
    const SessionId s = e.create_session();
    e.wait(e.submit(s, std::move(r)));
    e.close_session(s);
    std::lock_guard lk(out.m);
    return out.stats;
}

} // namespace

class TestEngineDocuments : public QObject {
    Q_OBJECT
private slots:
    void countTokensEqualsWhatSubmitReports() {
        Engine e;
        QVERIFY(e.load_sync(demoSpec()).has_value());
        const std::string doc = documentText(6);
        const std::string tools =
            R"([{"type":"function","function":{"name":"sql_query","description":"Run SQL",)"
            R"("parameters":{"type":"object","properties":{"q":{"type":"string"}}}}}])";
        struct Case {
            const char* name;
            std::function<void(Request&)> fill;
        };
        const std::vector<Case> cases = {
            {"system + user",
             [&](Request& r) {
                 r.messages = {{"system", doc, {}, {}}, {"user", "What pressure?", {}, {}}};
             }},
            {"user only",
             [](Request& r) {
                 r.messages = {{"user", "Hello there", {}, {}}};
             }},
            {"history",
             [&](Request& r) {
                 r.messages = {{"system", doc, {}, {}},
                               {"user", "What pressure?", {}, {}},
                               {"assistant", "40 bar [p. 2].", {}, {}},
                               {"user", "And the valve?", {}, {}}};
             }},
            {"tools",
             [&](Request& r) {
                 r.messages = {{"user", "Sum the sales", {}, {}}};
                 r.tools_json = tools;
             }},
            {"tool call and result",
             [&](Request& r) {
                 Message call{"assistant", "", {}, {{"", "sql_query", R"({"q":"select 1"})"}}};
                 r.messages = {{"user", "Sum the sales", {}, {}}, call, {"tool", "[[1]]", {}, {}}};
                 r.tools_json = tools;
             }},
            {"no generation prompt",
             [&](Request& r) {
                 r.messages = {{"system", doc, {}, {}}};
                 r.generation_prompt = false;
             }},
            {"raw text", [&](Request& r) { r.prompt_text = doc; }},
            {"raw tokens", [](Request& r) { r.prompt_tokens = randomTokens(77, 3); }},
        };
        for (const Case& c : cases) {
            Collected out;
            Request r = makeRequest({}, 1, out);
            c.fill(r);
            auto counted = e.count_tokens(r);
            QVERIFY2(counted.has_value(), c.name);
            const RequestStats st = submitted(e, r, out);
            QVERIFY2(out.errors.empty(), out.errors.empty() ? c.name : out.errors[0].c_str());
            QVERIFY2(*counted > 5, c.name);
            QVERIFY2(*counted == st.prompt_tokens,
                     qPrintable(QStringLiteral("%1: counted %2, submitted %3")
                                    .arg(QLatin1String(c.name))
                                    .arg(*counted)
                                    .arg(st.prompt_tokens)));
        }
        Collected unused;
        QCOMPARE(*e.count_tokens(makeRequest(randomTokens(77, 3), 1, unused)),
                 int64_t(77)); // tokens count as themselves
    }

    void countTokensWithImagesEqualsWhatSubmitReports() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        Engine e;
        ModelSpec spec;
        spec.gguf = (dir + QStringLiteral("/models/ds2-vl-text-f32.gguf")).toStdString();
        spec.mmproj = (dir + QStringLiteral("/models/kimivl-mmproj-f32.gguf")).toStdString();
        spec.threads = 2;
        QVERIFY(e.load_sync(spec).has_value());
        const std::string chart = (dir + QStringLiteral("/models/chart.png")).toStdString();
        ImageInput pixels;
        pixels.width = 90;
        pixels.height = 40;
        pixels.rgb.resize(size_t(90 * 40 * 3));
        for (size_t i = 0; i < pixels.rgb.size(); ++i)
            pixels.rgb[i] = static_cast<uint8_t>(i * 31 % 251);
        struct Case {
            const char* name;
            std::function<void(Request&)> fill;
            int64_t expected; // -1: only equal to submit
        };
        const std::vector<Case> cases = {
            // 7 + 48 image rows + 37 (the vision golden's prompt)
            {"path in a message",
             [&](Request& r) {
                 r.messages = {{"user", "What does this chart show?", {{chart, 0, 0, {}}}, {}}};
             },
             92},
            {"pixels in a message",
             [&](Request& r) {
                 r.messages = {{"user", "Describe it.", {pixels}, {}}};
             },
             -1},
            {"path and pixels in raw text",
             [&](Request& r) {
                 r.prompt_text = "A <__media__> and a <__media__> compared.";
                 r.images = {{chart, 0, 0, {}}, pixels};
             },
             -1},
        };
        for (const Case& c : cases) {
            Collected out;
            Request r = makeRequest({}, 1, out);
            c.fill(r);
            auto counted = e.count_tokens(r);
            QVERIFY2(counted.has_value(), counted ? c.name : counted.error().message.c_str());
            const RequestStats st = submitted(e, r, out);
            QVERIFY2(out.errors.empty(), out.errors.empty() ? c.name : out.errors[0].c_str());
            QCOMPARE(*counted, st.prompt_tokens);
            if (c.expected >= 0)
                QCOMPARE(*counted, c.expected);
        }
    }

    void prefillOnlyReadsThePromptForTheNextRequest() {
        Engine e;
        QVERIFY(e.load_sync(demoSpec(64)).has_value());
        const std::vector<int32_t> doc = randomTokens(300, 5);
        std::vector<int32_t> question = doc;
        const std::vector<int32_t> q = randomTokens(12, 6);
        question.insert(question.end(), q.begin(), q.end());
        const SessionId s = e.create_session();
        Collected read;
        std::atomic<int> tokens{0};
        Request r = makeRequest(doc, 0, read);
        r.callbacks.on_token = [&](std::string_view, int32_t) { ++tokens; };
        e.wait(e.submit(s, std::move(r)));
        QVERIFY(read.errors.empty());
        QCOMPARE(read.stats.stop_reason, std::string("length"));
        QCOMPARE(read.stats.generated_tokens, int64_t(0));
        QCOMPARE(read.stats.text, std::string());
        QCOMPARE(tokens.load(), 0);
        QCOMPARE(read.stats.prompt_tokens, int64_t(300));
        QCOMPARE(read.progress.back(), int64_t(300)); // read in chunks of 64: 64, 128, ..., 300
        QCOMPARE(read.progress.size(), size_t(5));
        Collected answer;
        e.wait(e.submit(s, makeRequest(question, 4, answer)));
        QCOMPARE(answer.stats.reused_tokens, int64_t(300));
        QCOMPARE(answer.ids.size(), size_t(4));
        // The prefix cache hands the document to another session too.
        Collected other;
        e.wait(e.submit(e.create_session(), makeRequest(question, 4, other)));
        QCOMPARE(other.stats.reused_tokens, int64_t(256)); // whole 64-token blocks
        QCOMPARE(other.ids, answer.ids);
    }

    // The document prefix the workbench reads ahead is {system} without the generation prompt:
    // it must be a token prefix of {system, user} (the question reuses every token of it). With
    // the generation prompt, the assistant header after the system turn is not.
    void systemTurnIsATokenPrefixOfTheQuestion() {
        ModelSpec spec = demoSpec(128);
        spec.cache.prefix_cache = false; // each session reuses only what it read itself
        Engine e;
        QVERIFY(e.load_sync(spec).has_value());
        const std::string doc = documentText(10);
        const Message system{"system", doc, {}, {}};
        const Message user{"user", "Which pump runs at 27 bar?", {}, {}};
        Collected unused;
        Request prefix = chat({system}, 0, unused);
        prefix.generation_prompt = false;
        Request withHeader = chat({system}, 0, unused);
        const int64_t nPrefix = *e.count_tokens(prefix);
        const int64_t nHeader = *e.count_tokens(withHeader);
        QVERIFY(nHeader > nPrefix);

        for (bool generationPrompt : {false, true}) {
            const SessionId s = e.create_session();
            Collected read, answer;
            Request r = chat({system}, 0, read);
            r.generation_prompt = generationPrompt;
            e.wait(e.submit(s, std::move(r)));
            QCOMPARE(read.stats.prompt_tokens, generationPrompt ? nHeader : nPrefix);
            e.wait(e.submit(s, chat({system, user}, 2, answer)));
            QVERIFY(answer.errors.empty());
            if (!generationPrompt)
                QCOMPARE(answer.stats.reused_tokens, nPrefix); // every token of the prefix
            else
                QVERIFY2(answer.stats.reused_tokens < nHeader,
                         qPrintable(QString::number(answer.stats.reused_tokens)));
            e.close_session(s);
        }
    }

    void cancelDuringPrefillKeepsTheChunksRead() {
        ModelSpec spec = demoSpec(64);
        spec.cache.prefix_cache = false; // only the session's own cache can give tokens back
        Engine e;
        QVERIFY(e.load_sync(spec).has_value());
        const std::vector<int32_t> prompt = randomTokens(640, 9); // ten chunks
        const SessionId s = e.create_session();
        Collected first;
        std::atomic<RequestId> rid{0};
        std::atomic<int64_t> readAtCancel{-1};
        Request r = makeRequest(prompt, 4, first);
        r.callbacks.on_prefill_progress = [&](int64_t done, int64_t, double) {
            {
                std::lock_guard lk(first.m);
                first.progress.push_back(done);
            }
            if (readAtCancel < 0) {
                readAtCancel = done;
                while (rid == 0) {
                }
                e.cancel(rid);
            }
        };
        rid = e.submit(s, std::move(r));
        e.wait(rid);
        QCOMPARE(first.stats.stop_reason, std::string("cancelled"));
        QCOMPARE(readAtCancel.load(), int64_t(64));
        const int64_t read = first.progress.back();
        QVERIFY2(read < 640, qPrintable(QString::number(read)));
        // The stats say what the session holds: the chunks read, not the whole prompt.
        QCOMPARE(first.stats.prompt_tokens, int64_t(640));
        QCOMPARE(first.stats.prompt_read_tokens, read);
        Collected again;
        e.wait(e.submit(s, makeRequest(prompt, 4, again)));
        QVERIFY2(
            again.stats.reused_tokens >= readAtCancel && again.stats.reused_tokens == read,
            qPrintable(
                QStringLiteral("reused %1, read %2").arg(again.stats.reused_tokens).arg(read)));
        // And the answer is the one computed without any reuse.
        Engine plain;
        QVERIFY(plain.load_sync(spec).has_value());
        Collected scratch;
        plain.wait(plain.submit(plain.create_session(), makeRequest(prompt, 4, scratch)));
        QCOMPARE(scratch.stats.reused_tokens, int64_t(0));
        QCOMPARE(again.ids, scratch.ids);
    }

    // Session B reads a long document in the background (prefill only, small chunks); a question
    // on session A submitted meanwhile is answered while B is still reading: B gets at most the
    // chunk it was in when A arrived.
    void backgroundReadingDoesNotHoldUpAnInteractiveAnswer() {
        Engine e;
        QVERIFY(e.load_sync(demoSpec(32)).has_value());
        const SessionId a = e.create_session(), b = e.create_session();
        const int64_t total = 3000;
        Collected reading, answer;
        std::atomic<bool> answering{false};
        std::atomic<int> chunksDuringAnswer{0};
        std::atomic<int64_t> readWhenAnswered{-1};
        Request bg = makeRequest(randomTokens(int(total), 11), 0, reading);
        bg.interactive = false;
        bg.callbacks.on_prefill_progress = [&](int64_t done, int64_t, double) {
            std::lock_guard lk(reading.m);
            reading.progress.push_back(done);
            if (answering)
                ++chunksDuringAnswer;
        };
        Request fg = makeRequest(randomTokens(60, 12), 6, answer);
        fg.callbacks.on_done = [&](const RequestStats& st) {
            answering = false;
            {
                std::lock_guard lk(answer.m);
                answer.stats = st;
            }
            std::lock_guard lk(reading.m);
            readWhenAnswered = reading.progress.back();
        };
        const RequestId r = e.submit(b, std::move(bg));
        int64_t readAtQuestion = 0;
        for (;;) { // B is reading: the question arrives
            {
                std::lock_guard lk(reading.m);
                if (!reading.progress.empty()) {
                    readAtQuestion = reading.progress.back();
                    answering = true;
                    break;
                }
            }
            QThread::usleep(200);
        }
        const RequestId q = e.submit(a, std::move(fg));
        e.wait(q);
        e.wait(r);
        QVERIFY(answer.errors.empty() && reading.errors.empty());
        QCOMPARE(answer.stats.generated_tokens, int64_t(6));
        QCOMPARE(reading.stats.prompt_tokens, total);
        QCOMPARE(reading.progress.back(), total);
        QVERIFY2(readWhenAnswered < total && readWhenAnswered <= readAtQuestion + 32,
                 qPrintable(QStringLiteral("read %1 when asked, %2 when answered")
                                .arg(readAtQuestion)
                                .arg(readWhenAnswered)));
        QVERIFY2(chunksDuringAnswer <= 1, qPrintable(QString::number(chunksDuringAnswer)));
    }

    // save_snapshot lends the session's sequence to the writer; a reset meanwhile must win: the
    // sequence comes back to be freed, not to the session (whose keys were cleared).
    void aResetDuringASnapshotIsNotUndone() {
        auto h = load_decoder_handle(demoModel().toStdString());
        QVERIFY(h.has_value());
        const DecoderHandle& model = **h;
        SessionCache c;
        QVERIFY(!c.replace(model, new_sequence(model, 256), {}));
        QVERIFY(c.has_sequence());
        // No reset: the sequence goes back.
        uint64_t gen = c.generation();
        auto lent = c.lend();
        QVERIFY(!c.has_sequence());
        QVERIFY(!c.give_back(std::move(lent), gen));
        QVERIFY(c.has_sequence());
        // A reset while lent: the session stays empty and the sequence is handed back to free.
        gen = c.generation();
        lent = c.lend();
        QVERIFY(!c.release()); // reset_session → drop_cache
        auto back = c.give_back(std::move(lent), gen);
        QVERIFY(back != nullptr);
        QVERIFY(!c.has_sequence());
        QVERIFY(c.keys().empty());
        // Replaced while lent (a snapshot loaded meanwhile): the new sequence stays.
        QVERIFY(!c.replace(model, std::move(back), {}));
        gen = c.generation();
        lent = c.lend();
        QVERIFY(!c.replace(model, new_sequence(model, 256), {}));
        QVERIFY(c.give_back(std::move(lent), gen) != nullptr);
        QVERIFY(c.has_sequence());
    }
};

QTEST_GUILESS_MAIN(TestEngineDocuments)
#include "test_engine_documents.moc"
