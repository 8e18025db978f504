// folio-cli serve and RemoteBackend against each other on loopback: a real server process on the
// ds2-lite conformance model, the embedded Engine as the reference for greedy tokens, the error
// paths (bad JSON, no body, wrong key, too large, wrong method, server killed mid-stream, nobody
// listening), the /metrics counters, cancel, and a bounded load test that prints latency
// percentiles.
#include <QProcess>
#include <QtTest>

#include "app/serve/request_bodies.h"
#include "folio/engine.h"
#include "folio/engine_backend.h"
#include "folio/remote_backend.h"
#include "model/vision/image_io.h"
#include "remote/sse_parser.h"
#include "serve/data_url.h"
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

namespace {

const char* kKey = "test-key-123";

struct Outcome {
    std::vector<int32_t> ids;
    std::string text; // concatenated on_token text
    RequestStats stats;
    std::string error;
    int done_calls = 0;
};

// Installs callbacks that fill `out` (guarded by `mu`); `first` fires at the first token.
void collect(Request& r, Outcome& out, std::mutex& mu, std::promise<void>* first = nullptr) {
    auto fired = std::make_shared<std::atomic<bool>>(false);
    r.callbacks.on_token = [&out, &mu, first, fired](std::string_view t, int32_t id) {
        {
            std::lock_guard lk(mu);
            if (id >= 0)
                out.ids.push_back(id);
            out.text += t;
        }
        if (first && !fired->exchange(true))
            first->set_value();
    };
    r.callbacks.on_error = [&out, &mu](const Error& e) {
        std::lock_guard lk(mu);
        out.error = e.to_string();
    };
    r.callbacks.on_done = [&out, &mu](const RequestStats& s) {
        std::lock_guard lk(mu);
        out.stats = s;
        ++out.done_calls;
    };
}

Outcome run(ChatBackend& b, Request r) {
    Outcome out;
    std::mutex mu;
    collect(r, out, mu);
    b.wait(b.submit(std::move(r)));
    std::lock_guard lk(mu);
    return out;
}

Request greedy(int n) {
    Request r;
    r.max_tokens = n;
    r.ignore_eos = true;
    r.sampling.temperature = 0;
    r.sampling.top_k = 0;
    r.sampling.top_p = 1;
    r.sampling.min_p = 0;
    return r;
}

RemoteOptions remoteOptions(const std::string& url, const std::string& key = kKey) {
    RemoteOptions o;
    o.base_url = url;
    o.api_key = key;
    o.model = "ds2-lite";
    o.token_ids = true;
    o.read_timeout_s = 30;
    return o;
}

// A loopback port nobody listens on: bound once by the system's choice, then closed.
int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

struct RawReply {
    int status = 0;
    httplib::Headers headers; // names as sent
    std::string body;
    std::string error;
};

// Writes each request byte for byte to one connection to 127.0.0.1:port and reads its response
// (headers, then a body of its Content-Length) before writing the next, leaving the connection
// open while it waits: a server that waited for more of a request would keep it waiting until
// the 30 s receive timeout, and one that left part of a request unread would misread the next.
std::vector<RawReply> rawHttpOnOneConnection(int port, const std::vector<std::string>& requests) {
    std::vector<RawReply> replies;
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    timeval tv{30, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<uint16_t>(port));
    const bool connected = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    for (const std::string& request : requests) {
        RawReply& out = replies.emplace_back();
        if (!connected || ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) !=
                              static_cast<ssize_t>(request.size())) {
            out.error = "cannot connect or send";
            break;
        }
        std::string got;
        size_t head_end = std::string::npos;
        size_t need = 0;
        char buf[4096];
        while (head_end == std::string::npos || got.size() < head_end + 4 + need) {
            const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
            if (n <= 0)
                break;
            got.append(buf, static_cast<size_t>(n));
            if (head_end != std::string::npos ||
                (head_end = got.find("\r\n\r\n")) == std::string::npos)
                continue;
            size_t line = got.find("\r\n") + 2;
            while (line < head_end) {
                const size_t eol = got.find("\r\n", line);
                const std::string h = got.substr(line, eol - line);
                const size_t colon = h.find(':');
                std::string value = h.substr(colon + 1);
                value.erase(0, value.find_first_not_of(' '));
                out.headers.emplace(h.substr(0, colon), value);
                line = eol + 2;
            }
            auto cl = out.headers.find("Content-Length");
            need = cl == out.headers.end() || request.rfind("HEAD ", 0) == 0
                       ? 0
                       : std::stoul(cl->second); // a HEAD reply says the length, sends no body
        }
        if (head_end == std::string::npos || got.compare(0, 9, "HTTP/1.1 ") != 0) {
            out.error = "no HTTP response: '" + got + "'";
            break;
        }
        out.status = std::stoi(got.substr(9, 3));
        out.body = got.substr(head_end + 4);
    }
    ::close(fd);
    return replies;
}

RawReply rawHttp(int port, const std::string& request) {
    return rawHttpOnOneConnection(port, {request}).front();
}

double metricValue(const std::string& text, const std::string& name) {
    const size_t at = text.find("\n" + name + " ");
    return at == std::string::npos ? -1.0 : std::stod(text.substr(at + name.size() + 2));
}

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
