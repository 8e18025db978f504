// folio-cli serve and RemoteBackend against each other on loopback: a real server process on the
// ds2-lite conformance model, the embedded Engine as the reference for greedy tokens, images,
// cancel, a server killed mid-stream, nobody listening, and a bounded load test that prints
// latency percentiles. The HTTP status codes and counters are test_server_http's.
#include <QProcess>
#include <QtTest>

#include "app/serve/request_bodies.h"
#include "folio/engine.h"
#include "folio/engine_backend.h"
#include "folio/remote_backend.h"
#include "model/vision/image_io.h"
#include "remote/sse_parser.h"
#include "serve/data_url.h"
#include "serve_test_helpers.h"
#include "support/server_process.h"
#include "support/test_support.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <thread>

using namespace folio;
using nlohmann::json;
using namespace folio::test;

namespace {

double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    const size_t i = std::min(v.size() - 1, static_cast<size_t>(p / 100.0 * double(v.size())));
    return v[i];
}

} // namespace

class TestRemote : public QObject {
    Q_OBJECT
    QString model_;
    std::unique_ptr<folio::test::ServerProcess> server_;

    httplib::Headers auth() const { return {{"Authorization", std::string("Bearer ") + kKey}}; }

private slots:
    void initTestCase() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        model_ = dir + QStringLiteral("/models/ds2-lite-f32.gguf");
        server_ = std::make_unique<folio::test::ServerProcess>();
        QString err;
        QVERIFY2(server_->start(model_,
                                {QStringLiteral("--api-key"), QString::fromLatin1(kKey),
                                 QStringLiteral("--alias"), QStringLiteral("ds2-lite"),
                                 QStringLiteral("--max-body"), QStringLiteral("64K")},
                                &err),
                 qPrintable(err));
    }

    void sseParserHandlesSplitsAndComments() {
        remote::SseParser p;
        std::vector<std::string> ev;
        const std::string stream =
            ": keep-alive\r\n\r\ndata: {\"a\":1}\r\n\r\nevent: x\ndata: line1\ndata: line2\n\n"
            "data:[DONE]\n\n";
        for (char c : stream) // one byte at a time, the worst split
            p.feed(std::string_view(&c, 1), ev);
        QCOMPARE(ev.size(), size_t(3));
        QCOMPARE(ev[0], std::string("{\"a\":1}"));
        QCOMPARE(ev[1], std::string("line1\nline2"));
        QCOMPARE(ev[2], std::string("[DONE]"));
        QVERIFY(!p.has_partial());
    }

    void base64DataUrls() {
        auto ok = serve::decode_data_url("data:image/png;base64,aGVsbG8=");
        QVERIFY(ok);
        QCOMPARE(std::string(ok->begin(), ok->end()), std::string("hello"));
        QVERIFY(!serve::decode_data_url("https://example.invalid/a.png"));
        QVERIFY(!serve::decode_data_url("data:image/png;base64,aGV$bG8="));
    }

    void nonStreamedAnswerHasUsageAndTimings() {
        httplib::Client c(server_->url());
        c.set_read_timeout(120, 0); // slow under sanitizers on a loaded machine
        const std::string body =
            json{{"model", "ds2-lite"}, {"messages", {{{"role", "user"}, {"content", "Hello"}}}},
                 {"max_tokens", 5},     {"temperature", 0},
                 {"ignore_eos", true},  {"return_token_ids", true}}
                .dump();
        auto r = c.Post("/v1/chat/completions", auth(), body, "application/json");
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        json j = json::parse(r->body);
        QCOMPARE(j["object"].get<std::string>(), std::string("chat.completion"));
        QCOMPARE(j["model"].get<std::string>(), std::string("ds2-lite"));
        QCOMPARE(j["choices"][0]["message"]["role"].get<std::string>(), std::string("assistant"));
        QCOMPARE(j["choices"][0]["finish_reason"].get<std::string>(), std::string("length"));
        QCOMPARE(j["choices"][0]["token_ids"].size(), size_t(5));
        QCOMPARE(j["usage"]["completion_tokens"].get<int>(), 5);
        QCOMPARE(j["usage"]["total_tokens"].get<int>(), j["usage"]["prompt_tokens"].get<int>() + 5);
        QVERIFY(j["timings"]["ttft_ms"].get<double>() > 0);
        QVERIFY(j["timings"]["predicted_per_second"].get<double>() > 0);
    }

    void sharedPrefixHitsThePrefixCache() {
        // Two requests (two sessions on the server) with the same 200-token document: the second
        // reuses the first one's KV blocks.
        RemoteBackend remote(remoteOptions(server_->url()));
        std::vector<int32_t> doc;
        for (int i = 0; i < 200; ++i)
            doc.push_back(3 + (i * 37) % 300);
        Request a = greedy(4);
        a.prompt_tokens = doc;
        a.prompt_tokens.push_back(11);
        Request b = greedy(4);
        b.prompt_tokens = doc;
        b.prompt_tokens.push_back(12);
        Outcome first = run(remote, a);
        Outcome second = run(remote, b);
        QVERIFY2(second.error.empty(), second.error.c_str());
        QCOMPARE(first.stats.prompt_tokens, int64_t(201));
        QVERIFY2(second.stats.reused_tokens >= 128,
                 qPrintable(QString::number(second.stats.reused_tokens)));
    }

    void greedyTokensMatchEmbeddedEngine() {
        Engine engine;
        ModelSpec ms;
        ms.gguf = model_.toStdString();
        ms.threads = 1;
        QVERIFY(engine.load_sync(ms));
        EngineChatBackend local(engine, "ds2-lite");
        RemoteBackend remote(remoteOptions(server_->url()));

        // Messages through the chat template (/v1/chat/completions) ...
        Request chat = greedy(24);
        chat.messages = {{"system", "You are terse.", {}, {}},
                         {"user", "Summarise the report in one line.", {}, {}}};
        Outcome a = run(local, chat);
        Outcome b = run(remote, chat);
        QVERIFY2(b.error.empty(), b.error.c_str());
        QCOMPARE(a.ids.size(), size_t(24));
        QCOMPARE(b.ids, a.ids);
        QCOMPARE(b.text, a.text);
        QCOMPARE(b.stats.text, a.stats.text);
        QCOMPARE(b.stats.stop_reason, std::string("length"));
        QCOMPARE(b.stats.prompt_tokens, a.stats.prompt_tokens);
        QCOMPARE(b.stats.generated_tokens, int64_t(24));
        QVERIFY(b.stats.ttft_ms > 0);

        // ... and raw prompt tokens (/v1/completions).
        Request raw = greedy(16);
        raw.prompt_tokens = {1, 17, 42, 99, 123, 200, 7};
        Outcome c = run(local, raw);
        Outcome d = run(remote, raw);
        QVERIFY2(d.error.empty(), d.error.c_str());
        QCOMPARE(c.ids.size(), size_t(16));
        QCOMPARE(d.ids, c.ids);
        QCOMPARE(local.status().kind, std::string("embedded"));
        QCOMPARE(remote.status().kind, std::string("remote"));
        QCOMPARE(remote.status().last.generated_tokens, int64_t(16));
    }

    void imagesTravelAsDataUrls() {
        // Kimi-VL pair: an image file (sent as a PNG data URL) and raw RGB pixels (sent as a BMP
        // data URL) give the same greedy tokens remotely as in the embedded engine.
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const QString text = dir + QStringLiteral("/models/ds2-vl-text-f32.gguf");
        const QString mmproj = dir + QStringLiteral("/models/kimivl-mmproj-f32.gguf");
        const std::string chart = (dir + QStringLiteral("/models/chart.png")).toStdString();
        folio::test::ServerProcess vl;
        QString err;
        QVERIFY2(vl.start(text, {QStringLiteral("--mmproj"), mmproj}, &err), qPrintable(err));
        Engine engine;
        ModelSpec ms;
        ms.gguf = text.toStdString();
        ms.mmproj = mmproj.toStdString();
        ms.threads = 1;
        QVERIFY(engine.load_sync(ms));
        EngineChatBackend local(engine);
        RemoteBackend remote(remoteOptions(vl.url(), ""));

        auto pixels = vision::load_image_file(chart);
        QVERIFY(pixels);
        ImageInput from_file, from_pixels;
        from_file.path = chart;
        from_pixels.width = pixels->width;
        from_pixels.height = pixels->height;
        from_pixels.rgb = pixels->rgb;
        for (const ImageInput& img : {from_file, from_pixels}) {
            Request r = greedy(12);
            r.messages = {{"user", "What does this chart show?", {img}, {}}};
            Outcome a = run(local, r);
            Outcome b = run(remote, r);
            QVERIFY2(a.error.empty(), a.error.c_str());
            QVERIFY2(b.error.empty(), b.error.c_str());
            QCOMPARE(a.ids.size(), size_t(12));
            QCOMPARE(b.ids, a.ids);
            QVERIFY(b.stats.prompt_tokens > 20); // the image's tokens are in the prompt
        }
    }

    void cliGenerateRemoteMatchesLocal() {
        // folio-cli generate --remote prints the same greedy ids as the local generate.
        auto cli = [](const QStringList& args) {
            QProcess p;
            p.start(folio::test::builtProgram(QStringLiteral("app/folio-cli")), args);
            p.waitForFinished(60000);
            return std::make_pair(p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()));
        };
        const QStringList common = {QStringLiteral("--tokens"), QStringLiteral("1,5,9,33,70"),
                                    QStringLiteral("-n"),       QStringLiteral("12"),
                                    QStringLiteral("--temp"),   QStringLiteral("0"),
                                    QStringLiteral("--ids"),    QStringLiteral("--ignore-eos")};
        auto local = cli(QStringList{QStringLiteral("generate"), QStringLiteral("-m"), model_,
                                     QStringLiteral("-t"), QStringLiteral("1")} +
                         common);
        auto remote = cli(QStringList{QStringLiteral("generate"), QStringLiteral("--remote"),
                                      QString::fromStdString(server_->url()),
                                      QStringLiteral("--api-key"), QString::fromLatin1(kKey),
                                      QStringLiteral("--model"), QStringLiteral("ds2-lite")} +
                          common);
        QCOMPARE(local.first, 0);
        QCOMPARE(remote.first, 0);
        QCOMPARE(local.second.trimmed().split(QLatin1Char(',')).size(), 12);
        QCOMPARE(remote.second.trimmed(), local.second.trimmed());
        auto refused =
            cli({QStringLiteral("generate"), QStringLiteral("--remote"),
                 QString::fromStdString(server_->url()), QStringLiteral("--model"),
                 QStringLiteral("ds2-lite"), QStringLiteral("-p"), QStringLiteral("hi")});
        QCOMPARE(refused.first, 1); // no key: 401
    }

    void cancelStopsTheStreamAndTheServerRequest() {
        RemoteBackend remote(remoteOptions(server_->url()));
        Request r = greedy(4000);
        r.prompt_text = "Once upon a time";
        Outcome o;
        std::mutex mu;
        std::promise<void> first;
        auto got_first = first.get_future();
        collect(r, o, mu, &first);
        const auto t0 = std::chrono::steady_clock::now();
        const RequestId id = remote.submit(std::move(r));
        QVERIFY(got_first.wait_for(std::chrono::seconds(20)) == std::future_status::ready);
        remote.cancel(id);
        remote.wait(id);
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::lock_guard lk(mu);
        QCOMPARE(o.done_calls, 1);
        QCOMPARE(o.stats.stop_reason, std::string("cancelled"));
        QVERIFY(o.error.empty());
        QVERIFY(!o.stats.text.empty() || !o.ids.empty());
        QVERIFY2(o.ids.size() < 4000, qPrintable(QString::number(o.ids.size())));
        QVERIFY2(secs < 10, qPrintable(QString::number(secs)));

        // The server notices the disconnect and cancels the engine request.
        httplib::Client c(server_->url());
        c.set_read_timeout(120, 0); // slow under sanitizers on a loaded machine
        bool cancelled = false;
        for (int i = 0; i < 100 && !cancelled; ++i) {
            auto m = c.Get("/metrics", auth());
            QVERIFY(m);
            cancelled = m->body.find("folio_requests_cancelled_total 0\n") == std::string::npos;
            if (!cancelled)
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        QVERIFY(cancelled);
    }

    void serverKilledMidStreamKeepsPartialAnswer() {
        folio::test::ServerProcess doomed;
        QString err;
        QVERIFY2(doomed.start(model_, {}, &err), qPrintable(err));
        RemoteBackend remote(remoteOptions(doomed.url(), ""));
        Request r = greedy(4000);
        r.messages = {{"user", "Tell me a long story.", {}, {}}};
        Outcome o;
        std::mutex mu;
        std::promise<void> first;
        auto got_first = first.get_future();
        collect(r, o, mu, &first);
        const RequestId id = remote.submit(std::move(r));
        QVERIFY(got_first.wait_for(std::chrono::seconds(20)) == std::future_status::ready);
        doomed.kill();
        remote.wait(id);
        std::lock_guard lk(mu);
        QCOMPARE(o.done_calls, 1);
        QCOMPARE(o.stats.stop_reason, std::string("error"));
        QVERIFY2(o.error.find("lost") != std::string::npos, o.error.c_str());
        QVERIFY(!o.ids.empty() && o.ids.size() < 4000);
        QCOMPARE(o.stats.text, o.text); // the partial answer is kept
    }

    void nobodyListeningIsRetriedThenReported() {
        RemoteOptions opt = remoteOptions("http://127.0.0.1:" + std::to_string(freePort()));
        opt.max_retries = 2;
        opt.backoff_ms = 50;
        RemoteBackend remote(opt);
        Request r = greedy(4);
        r.prompt_text = "hi";
        const auto t0 = std::chrono::steady_clock::now();
        Outcome o = run(remote, std::move(r));
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        QCOMPARE(o.stats.stop_reason, std::string("error"));
        QVERIFY2(o.error.find("cannot reach") != std::string::npos, o.error.c_str());
        QVERIFY2(o.error.find("3 attempts") != std::string::npos, o.error.c_str());
        QVERIFY2(ms >= 140, qPrintable(QString::number(ms))); // 50 + 100 ms of backoff
        QVERIFY(!RemoteBackend(remoteOptions("ftp://x")).valid());
    }

    void loadEightClientsTwentyRequests() {
        // 8 clients x 20 short streamed chat requests at once: none may fail.
        RemoteBackend remote(remoteOptions(server_->url()));
        std::mutex mu;
        std::vector<double> latency_ms;
        std::vector<double> ttft_ms;
        std::atomic<int> failed{0};
        std::vector<std::thread> clients;
        const auto t0 = std::chrono::steady_clock::now();
        for (int c = 0; c < 8; ++c) {
            clients.emplace_back([&, c] {
                for (int i = 0; i < 20; ++i) {
                    Request r = greedy(8);
                    r.messages = {{"user",
                                   "Client " + std::to_string(c) + " question " + std::to_string(i),
                                   {},
                                   {}}};
                    const auto s = std::chrono::steady_clock::now();
                    Outcome o = run(remote, std::move(r));
                    const double ms = std::chrono::duration<double, std::milli>(
                                          std::chrono::steady_clock::now() - s)
                                          .count();
                    if (!o.error.empty() || o.stats.stop_reason != "length" || o.ids.size() != 8)
                        ++failed;
                    std::lock_guard lk(mu);
                    latency_ms.push_back(ms);
                    ttft_ms.push_back(o.stats.ttft_ms);
                }
            });
        }
        for (auto& t : clients)
            t.join();
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        QCOMPARE(failed.load(), 0);
        QCOMPARE(latency_ms.size(), size_t(160));
        qInfo("load: 8 clients x 20 requests (8 tokens each) in %.2f s = %.1f req/s; latency ms "
              "p50 %.1f p90 %.1f p99 %.1f; TTFT ms p50 %.1f p99 %.1f",
              wall, 160 / wall, percentile(latency_ms, 50), percentile(latency_ms, 90),
              percentile(latency_ms, 99), percentile(ttft_ms, 50), percentile(ttft_ms, 99));
    }

    void metricsCountRequestsAndCacheBytes() {
        httplib::Client c(server_->url());
        c.set_read_timeout(120, 0); // slow under sanitizers on a loaded machine
        auto m = c.Get("/metrics", auth());
        QVERIFY(m);
        const std::string& t = m->body;
        auto value = [&](const std::string& name) { return metricValue(t, name); };
        QVERIFY2(value("folio_requests_total") >= 160, t.c_str()); // the load test's at least
        // Failures and cancels are parts of the requests, never more than them.
        QVERIFY2(value("folio_requests_failed_total") + value("folio_requests_cancelled_total") <=
                     value("folio_requests_total"),
                 t.c_str());
        QVERIFY(value("folio_requests_failed_total") >= 1);
        QVERIFY(value("folio_generated_tokens_total") >= 160 * 8);
        QVERIFY(value("folio_decode_tokens_per_second") > 0);
        const std::string weights = "folio_cache_bytes{device=\"ram0\",category=\"weights\"} ";
        const size_t at = t.find(weights);
        QVERIFY2(at != std::string::npos, t.c_str());
        QVERIFY(std::stoll(t.substr(at + weights.size())) > 1000000); // the 1.5 MB model file
        QVERIFY(t.find("folio_cache_bytes{device=\"ram0\",category=\"kv\"}") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestRemote)
#include "test_remote.moc"
