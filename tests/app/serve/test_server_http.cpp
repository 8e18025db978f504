// folio-cli serve's HTTP face on loopback, against a real server process on the ds2-lite
// conformance model: health, models and metrics; bad JSON, no body, wrong key, too large, wrong
// method (405 with Allow); every request counted once in /metrics, failures a part of them.
#include <QtTest>

#include "app/serve/request_bodies.h"
#include "serve_test_helpers.h"
#include "support/server_process.h"
#include "support/test_support.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

using namespace folio;
using namespace folio::test;
using nlohmann::json;

class TestServerHttp : public QObject {
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

    void healthModelsMetricsAnswer() {
        httplib::Client c(server_->url());
        c.set_read_timeout(120, 0); // slow under sanitizers on a loaded machine
        auto h = c.Get("/health");  // no key needed
        QVERIFY(h);
        QCOMPARE(h->status, 200);
        QVERIFY(h->body.find("ok") != std::string::npos);

        auto unauth = c.Get("/v1/models");
        QVERIFY(unauth);
        QCOMPARE(unauth->status, 401);

        RemoteBackend b(remoteOptions(server_->url()));
        auto models = b.list_models();
        QVERIFY2(models, models ? "" : models.error().message.c_str());
        QCOMPARE(models->size(), size_t(1));
        QCOMPARE(models->front().id, std::string("ds2-lite"));
        QCOMPARE(models->front().context_length, int64_t(4096));

        auto m = c.Get("/metrics", auth());
        QVERIFY(m);
        QCOMPARE(m->status, 200);
        QVERIFY(m->body.find("# TYPE folio_requests_total counter") != std::string::npos);
        QVERIFY(m->body.find("folio_decode_tokens_per_second") != std::string::npos);
    }

    void malformedRequestsGet400() {
        httplib::Client c(server_->url());
        c.set_read_timeout(120, 0); // slow under sanitizers on a loaded machine
        auto bad = c.Post("/v1/chat/completions", auth(), "{\"messages\": [", "application/json");
        QVERIFY(bad);
        QCOMPARE(bad->status, 400);
        json e = json::parse(bad->body);
        QCOMPARE(e["error"]["type"].get<std::string>(), std::string("invalid_request_error"));

        for (const auto& [body, param] : folio::test::badRequestBodies()) {
            const char* path = body.find("\"prompt\"") != std::string::npos
                                   ? "/v1/completions"
                                   : "/v1/chat/completions";
            auto r = c.Post(path, auth(), body, "application/json");
            QVERIFY(r);
            QVERIFY2(r->status == 400, body.c_str());
            json j = json::parse(r->body);
            QVERIFY2(j["error"]["param"] == param, r->body.c_str());
        }
        // The server is still there.
        auto h = c.Get("/health");
        QVERIFY(h && h->status == 200);
    }

    void formContentTypeIsReadAsJson() {
        // curl -d sends application/x-www-form-urlencoded; a 10 KB JSON body must still work.
        std::vector<int> prompt(2500);
        for (size_t i = 0; i < prompt.size(); ++i)
            prompt[i] = 100 + int(i % 200);
        const std::string body = json{{"prompt", prompt}, {"max_tokens", 1}}.dump();
        QVERIFY(body.size() > 8192);
        httplib::Client c(server_->url());
        c.set_read_timeout(120, 0); // slow under sanitizers on a loaded machine
        auto r = c.Post("/v1/completions", auth(), body, "application/x-www-form-urlencoded");
        QVERIFY(r);
        QVERIFY2(r->status == 200, r->body.c_str());
        QCOMPARE(json::parse(r->body)["usage"]["prompt_tokens"].get<int>(), 2500);
    }

    void tooLargeGets413() {
        httplib::Client c(server_->url());
        c.set_read_timeout(120, 0); // slow under sanitizers on a loaded machine
        const std::string big = folio::test::chatBody(std::string(100000, 'a'));
        auto r = c.Post("/v1/chat/completions", auth(), big, "application/json");
        QVERIFY(r);
        QCOMPARE(r->status, 413);
    }

    void wrongTokenGets401() {
        httplib::Client c(server_->url());
        c.set_read_timeout(120, 0); // slow under sanitizers on a loaded machine
        httplib::Headers wrong = {{"Authorization", "Bearer nope"}};
        auto r =
            c.Post("/v1/chat/completions", wrong, folio::test::chatBody("hi"), "application/json");
        QVERIFY(r);
        QCOMPARE(r->status, 401);
        QCOMPARE(json::parse(r->body)["error"]["type"].get<std::string>(),
                 std::string("authentication_error"));

        RemoteBackend b(remoteOptions(server_->url(), "nope"));
        Request req = greedy(4);
        req.messages = {{"user", "hi", {}, {}}};
        Outcome o = run(b, std::move(req));
        QCOMPARE(o.done_calls, 1);
        QCOMPARE(o.stats.stop_reason, std::string("error"));
        QVERIFY2(o.error.find("HTTP 401") != std::string::npos, o.error.c_str());
        QVERIFY(o.error.find("nope") == std::string::npos); // the key is never in messages
    }

    void postWithoutBodyGets400() {
        const std::string head = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                 "Authorization: Bearer " +
                                 std::string(kKey) + "\r\n";
        // No Content-Length and no Transfer-Encoding: HTTP/1.1 says there is no body, so the
        // answer comes at once (not after a read timeout) and says a body is required.
        const auto t0 = std::chrono::steady_clock::now();
        RawReply none = rawHttp(server_->port(), head + "\r\n");
        const double waited =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        QVERIFY2(none.error.empty(), none.error.c_str());
        QVERIFY2(none.status == 400, none.body.c_str());
        QVERIFY2(waited < 4.0, qPrintable(QString::number(waited))); // cpp-httplib waits 5 s
        json e = json::parse(none.body);
        QCOMPARE(e["error"]["type"].get<std::string>(), std::string("invalid_request_error"));
        QCOMPARE(e["error"]["code"].get<int>(), 400);
        const std::string message = e["error"]["message"].get<std::string>();
        QVERIFY2(message.find("no body") != std::string::npos, message.c_str());
        QVERIFY2(message.find("larger") == std::string::npos, message.c_str());

        // An empty body (Content-Length: 0) is the same mistake.
        RawReply empty = rawHttp(server_->port(), head + "Content-Length: 0\r\n\r\n");
        QVERIFY2(empty.status == 400, empty.body.c_str());
        QVERIFY(json::parse(empty.body)["error"]["message"].get<std::string>().find("no body") !=
                std::string::npos);

        // Over --max-body (64K) is still 413, and says the limit.
        RawReply big = rawHttp(server_->port(),
                               head + "Content-Length: 100000\r\n\r\n" + std::string(100000, ' '));
        QVERIFY2(big.status == 413, big.body.c_str());
        QVERIFY2(big.body.find("65536") != std::string::npos, big.body.c_str());
    }

    void otherMethodOnARouteGets405() {
        const std::string auth_line = "Authorization: Bearer " + std::string(kKey) + "\r\n";
        for (const char* path : {"/v1/chat/completions", "/v1/completions"}) {
            for (const char* method : {"GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"}) {
                RawReply r = rawHttp(server_->port(), std::string(method) + " " + path +
                                                          " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                                                          auth_line + "\r\n");
                const std::string what = std::string(method) + " " + path + ": " + r.body;
                QVERIFY2(r.status == 405, what.c_str());
                QVERIFY2(r.headers.count("Allow") == 1, what.c_str());
                QCOMPARE(r.headers.find("Allow")->second, std::string("POST"));
                QCOMPARE(r.headers.find("Content-Type")->second, std::string("application/json"));
                if (std::string(method) == "HEAD")
                    continue; // no body
                json e = json::parse(r.body);
                QCOMPARE(e["error"]["code"].get<int>(), 405);
                QCOMPARE(e["error"]["type"].get<std::string>(),
                         std::string("invalid_request_error"));
                QVERIFY2(e["error"]["message"].get<std::string>().find(method) != std::string::npos,
                         what.c_str());
            }
        }
        // A refused request's body is read, so the next request on the connection is answered.
        const std::vector<RawReply> kept = rawHttpOnOneConnection(
            server_->port(),
            {"DELETE /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n" + auth_line +
                 "Content-Length: 12\r\n\r\n{\"prompt\":1}",
             "PUT /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n" + auth_line +
                 "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
             "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"});
        QCOMPARE(kept.size(), size_t(3));
        QVERIFY2(kept[0].status == 405 && kept[1].status == 405, kept[1].error.c_str());
        QVERIFY2(kept[2].status == 200, kept[2].error.c_str());
        QCOMPARE(kept[2].body, std::string(R"({"status":"ok"})"));
        // A GET route asked with POST names the methods it answers.
        RawReply post = rawHttp(server_->port(), "POST /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                                                     auth_line + "Content-Length: 2\r\n\r\n{}");
        QVERIFY2(post.status == 405, post.body.c_str());
        QCOMPARE(post.headers.find("Allow")->second, std::string("GET, HEAD"));
        // A path the server does not have is still 404, without Allow.
        RawReply unknown = rawHttp(server_->port(), "GET /v1/nothing HTTP/1.1\r\nHost: "
                                                    "127.0.0.1\r\n" +
                                                        auth_line + "\r\n");
        QVERIFY2(unknown.status == 404, unknown.body.c_str());
        QCOMPARE(unknown.headers.count("Allow"), size_t(0));
        QCOMPARE(json::parse(unknown.body)["error"]["type"].get<std::string>(),
                 std::string("not_found_error"));
    }

    void metricsCountEachRequestOnce() {
        httplib::Client c(server_->url());
        c.set_read_timeout(120, 0); // slow under sanitizers on a loaded machine
        auto metrics = [&] {
            auto m = c.Get("/metrics", auth());
            return m ? m->body : std::string();
        };
        const std::string before = metrics();
        const std::string head = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n";
        const std::string key = "Authorization: Bearer " + std::string(kKey) + "\r\n";
        // Five completion requests, four of them refused in four different places.
        QCOMPARE(rawHttp(server_->port(), head + key + "\r\n").status, 400); // no body
        QCOMPARE(rawHttp(server_->port(),
                         head + key + "Content-Length: 100000\r\n\r\n" + std::string(100000, ' '))
                     .status,
                 413);
        QCOMPARE(c.Post("/v1/completions", auth(), "{\"prompt\": [", "application/json")->status,
                 400);
        QCOMPARE(c.Post("/v1/chat/completions", {{"Authorization", "Bearer nope"}},
                        folio::test::chatBody("hi"), "application/json")
                     ->status,
                 401);
        const std::string ok = json{{"prompt", {1, 17, 42}}, {"max_tokens", 1}}.dump();
        QCOMPARE(c.Post("/v1/completions", auth(), ok, "application/json")->status, 200);
        // Not completion requests: not counted.
        QCOMPARE(c.Get("/v1/completions", auth())->status, 405);
        QCOMPARE(c.Get("/v1/models", auth())->status, 200);
        const std::string after = metrics();
        QVERIFY2(!before.empty() && !after.empty(), "no /metrics");
        const auto delta = [&](const char* name) {
            return metricValue(after, name) - metricValue(before, name);
        };
        QCOMPARE(delta("folio_requests_total"), 5.0);
        QCOMPARE(delta("folio_requests_failed_total"), 4.0);
        QVERIFY2(metricValue(after, "folio_requests_failed_total") +
                         metricValue(after, "folio_requests_cancelled_total") <=
                     metricValue(after, "folio_requests_total"),
                 after.c_str());
    }
};

QTEST_GUILESS_MAIN(TestServerHttp)
#include "test_server_http.moc"
