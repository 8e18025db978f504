// The server and the remote client in one process (no child processes, so ThreadSanitizer can
// watch every thread: the engine's scheduler, cpp-httplib's connection threads, the clients'
// stream threads): four clients stream greedy answers at once and must each equal the embedded
// engine's answer, while a fifth is cancelled mid-stream.
#include <QtTest>

#include "folio/engine.h"
#include "folio/engine_backend.h"
#include "folio/remote_backend.h"
#include "serve/openai_server.h"
#include "support/test_support.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

using namespace folio;

namespace {

struct Outcome {
    std::mutex mu;
    std::vector<int32_t> ids;
    std::string error, stop;
    int done = 0;
};

Request greedy(const std::string& question, int n, Outcome& out) {
    Request r;
    r.max_tokens = n;
    r.ignore_eos = true;
    r.sampling.temperature = 0;
    r.messages = {{"user", question, {}, {}}};
    r.callbacks.on_token = [&out](std::string_view, int32_t id) {
        std::lock_guard lk(out.mu);
        if (id >= 0)
            out.ids.push_back(id);
    };
    r.callbacks.on_error = [&out](const Error& e) {
        std::lock_guard lk(out.mu);
        out.error = e.to_string();
    };
    r.callbacks.on_done = [&out](const RequestStats& s) {
        std::lock_guard lk(out.mu);
        out.stop = s.stop_reason;
        ++out.done;
    };
    return r;
}

} // namespace

class TestRemoteInProcess : public QObject {
    Q_OBJECT
private slots:
    void concurrentClientsAgainstAnInProcessServer() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        ModelSpec spec;
        spec.gguf = (dir + QStringLiteral("/models/ds2-lite-f32.gguf")).toStdString();
        spec.threads = 2;
        const std::vector<std::string> questions = {"What was revenue?", "Summarise page two.",
                                                    "Which segment grew?", "Name the auditor."};
        std::vector<std::vector<int32_t>> expected;
        {
            Engine local;
            QVERIFY(local.load_sync(spec).has_value());
            EngineChatBackend backend(local, "ds2-lite");
            for (const auto& q : questions) {
                Outcome o;
                backend.wait(backend.submit(greedy(q, 12, o)));
                QVERIFY2(o.error.empty(), o.error.c_str());
                expected.push_back(o.ids);
            }
        }

        Engine engine;
        auto facts = engine.load_sync(spec);
        QVERIFY(facts.has_value());
        serve::ServeOptions options;
        options.port = 0;
        options.model_name = "ds2-lite";
        options.http_threads = 8;
        serve::OpenAiServer server(engine, *facts, options, false);
        auto port = server.bind();
        QVERIFY2(port.has_value(), port ? "" : port.error().to_string().c_str());
        std::thread serving([&] { server.run(); });

        RemoteOptions ro;
        ro.base_url = "http://127.0.0.1:" + std::to_string(*port);
        ro.model = "ds2-lite";
        ro.token_ids = true;
        ro.read_timeout_s = 120;
        std::vector<std::unique_ptr<RemoteBackend>> clients;
        std::vector<std::unique_ptr<Outcome>> outcomes;
        std::vector<RequestId> ids;
        for (size_t i = 0; i < questions.size(); ++i) {
            clients.push_back(std::make_unique<RemoteBackend>(ro));
            outcomes.push_back(std::make_unique<Outcome>());
            ids.push_back(clients.back()->submit(greedy(questions[i], 12, *outcomes.back())));
        }
        // A fifth client asks for a long answer and cancels it once it streams.
        RemoteBackend canceller(ro);
        Outcome cancelled;
        const RequestId long_id = canceller.submit(greedy("Tell me everything.", 2000, cancelled));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                std::lock_guard lk(cancelled.mu);
                return cancelled.ids.size() >= 2 || cancelled.done > 0;
            }(),
            120000);
        canceller.cancel(long_id);
        canceller.wait(long_id);
        for (size_t i = 0; i < clients.size(); ++i)
            clients[i]->wait(ids[i]);
        server.stop();
        serving.join();

        for (size_t i = 0; i < questions.size(); ++i) {
            Outcome& o = *outcomes[i];
            std::lock_guard lk(o.mu);
            QVERIFY2(o.error.empty(), o.error.c_str());
            QCOMPARE(o.done, 1);
            QCOMPARE(o.ids, expected[i]);
        }
        std::lock_guard lk(cancelled.mu);
        QCOMPARE(cancelled.done, 1);
        QCOMPARE(cancelled.stop, std::string("cancelled"));
        QVERIFY(cancelled.ids.size() < 2000);
    }
};

QTEST_GUILESS_MAIN(TestRemoteInProcess)
#include "test_remote_inprocess.moc"
