// RemoteBackend against scripted in-process servers (cpp-httplib) for what a real server does
// rarely: 503 before an answer (retried), a stream that ends without [DONE], an error event
// mid-answer, a 500 with a FastAPI-style body, and https with a self-signed certificate; and
// structured tool calls streamed in pieces (vLLM / SGLang with a tool parser) run by an agent
// turn.
#include <QProcess>
#include <QtTest>

#include "folio/agent.h"
#include "folio/remote_backend.h"
#include "support/test_support.h"

#include <httplib.h>

#include <atomic>
#include <mutex>
#include <thread>

using namespace folio;

namespace {

std::string chunk(const std::string& text) {
    return "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{"
           "\"content\":\"" +
           text + "\"},\"finish_reason\":null}]}\n\n";
}

const std::string kFinish = "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":"
                            "\"stop\"}],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":2,"
                            "\"total_tokens\":9}}\n\ndata: [DONE]\n\n";

// Runs `server` on a free loopback port in a thread until the object goes away.
class Running {
public:
    explicit Running(httplib::Server& s) : s_(s) {
        port_ = s_.bind_to_any_port("127.0.0.1");
        thread_ = std::thread([this] { s_.listen_after_bind(); });
    }
    ~Running() {
        s_.stop();
        thread_.join();
    }
    int port() const { return port_; }

private:
    httplib::Server& s_;
    int port_ = 0;
    std::thread thread_;
};

void routes(httplib::Server& s, std::atomic<int>& flaky_calls) {
    s.Post("/flaky/v1/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
        if (++flaky_calls <= 2) {
            res.status = 503;
            res.set_content("{\"error\":{\"message\":\"warming up\"}}", "application/json");
            return;
        }
        res.set_content(chunk("Hel") + chunk("lo") + kFinish, "text/event-stream");
    });
    s.Post("/nodone/v1/chat/completions", [](const httplib::Request&, httplib::Response& res) {
        res.set_content(chunk("a") + chunk("b"), "text/event-stream");
    });
    s.Post("/errevent/v1/chat/completions", [](const httplib::Request&, httplib::Response& res) {
        res.set_content(chunk("x") + "data: {\"error\":{\"message\":\"boom: out of KV\"}}\n\n",
                        "text/event-stream");
    });
    s.Post("/detail/v1/chat/completions", [](const httplib::Request&, httplib::Response& res) {
        res.status = 500;
        res.set_content("{\"detail\":\"engine crashed\"}", "application/json");
    });
    s.Post("/ok/v1/chat/completions", [](const httplib::Request& req, httplib::Response& res) {
        if (req.get_header_value("Authorization") != "Bearer k") {
            res.status = 401;
            return;
        }
        res.set_content(chunk("Hel") + chunk("lo") + kFinish, "text/event-stream");
    });
}

// A delta with one piece of a structured tool call (vLLM's format with a tool parser): the
// first piece of a call has its id and name, the later ones only the index and more arguments.
// `args` is JSON string content (already escaped).
std::string toolDelta(int index, const std::string& id, const std::string& args) {
    const std::string head =
        id.empty() ? std::string() : ",\"id\":\"" + id + "\",\"type\":\"function\"";
    const std::string name = id.empty() ? std::string() : "\"name\":\"sql_query\",";
    return "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{"
           "\"tool_calls\":[{\"index\":" +
           std::to_string(index) + head + ",\"function\":{" + name + "\"arguments\":\"" + args +
           "\"}}]},\"finish_reason\":null}]}\n\n";
}

// Two calls whose arguments arrive in pieces, interleaved by index; after the tool results
// (a request with a "tool" message), an answer in words.
void toolRoutes(httplib::Server& s, std::atomic<int>& calls) {
    s.Post("/tools/v1/chat/completions", [&](const httplib::Request& req, httplib::Response& res) {
        ++calls;
        if (req.body.find("\"role\":\"tool\"") != std::string::npos) {
            res.set_content(chunk("Sales rose to 190.") + kFinish, "text/event-stream");
            return;
        }
        std::string body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
                           "\"content\":null},\"finish_reason\":null}]}\n\n";
        body += toolDelta(0, "chatcmpl-tool-a1", "");
        body += toolDelta(0, "", "{\\\"query\\\": \\\"SELECT SUM(amount)");
        body += toolDelta(1, "chatcmpl-tool-b2", "{\\\"query\\\":\\\"SELECT year ");
        body += toolDelta(0, "", " AS total FROM sales");
        body += toolDelta(1, "", "FROM sales ORDER BY year\\\"}");
        body += toolDelta(0, "", "\\\"}");
        body += "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}],"
                "\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":30,\"total_tokens\":70}}"
                "\n\ndata: [DONE]\n\n";
        res.set_content(body, "text/event-stream");
    });
}

struct Outcome {
    std::string text, error;
    RequestStats stats;
    int done_calls = 0;
};

Outcome ask(const std::string& base, const std::string& ca = {}) {
    RemoteOptions o;
    o.base_url = base;
    // (std::string(...) rather than a literal: GCC 12's false -Wrestrict on short string
    // assignment, PR 105329.)
    o.model = std::string(1, 'm');
    o.api_key = std::string(1, 'k');
    o.backoff_ms = 20;
    o.ca_cert_file = ca;
    RemoteBackend b(o);
    Outcome out;
    std::mutex mu;
    Request r;
    r.messages = {{"user", "hi", {}, {}}};
    r.callbacks.on_token = [&](std::string_view t, int32_t) {
        std::lock_guard lk(mu);
        out.text += t;
    };
    r.callbacks.on_error = [&](const Error& e) {
        std::lock_guard lk(mu);
        out.error = e.to_string();
    };
    r.callbacks.on_done = [&](const RequestStats& s) {
        std::lock_guard lk(mu);
        out.stats = s;
        ++out.done_calls;
    };
    b.wait(b.submit(std::move(r)));
    std::lock_guard lk(mu);
    return out;
}

} // namespace

class TestRemoteClient : public QObject {
    Q_OBJECT
    httplib::Server server_;
    std::atomic<int> flaky_calls_{0};
    std::atomic<int> tool_calls_{0};
    std::unique_ptr<Running> running_;
    std::string base_;

private slots:
    void initTestCase() {
        routes(server_, flaky_calls_);
        toolRoutes(server_, tool_calls_);
        running_ = std::make_unique<Running>(server_);
        QVERIFY(running_->port() > 0);
        base_ = "http://127.0.0.1:" + std::to_string(running_->port());
    }
    void cleanupTestCase() { running_.reset(); }

    void unavailableIsRetriedWithBackoff() {
        Outcome o = ask(base_ + "/flaky/v1");
        QVERIFY2(o.error.empty(), o.error.c_str());
        QCOMPARE(flaky_calls_.load(), 3);
        QCOMPARE(o.text, std::string("Hello"));
        QCOMPARE(o.stats.text, std::string("Hello"));
        QCOMPARE(o.stats.stop_reason, std::string("stop"));
        QCOMPARE(o.stats.prompt_tokens, int64_t(7));
        QCOMPARE(o.stats.generated_tokens, int64_t(2));
    }

    // vLLM / SGLang with a tool parser: calls come as delta.tool_calls pieces, accumulated by
    // index into RequestStats::tool_calls (not into the text).
    void structuredToolCallsAreAccumulated() {
        Outcome o = ask(base_ + "/tools/v1");
        QVERIFY2(o.error.empty(), o.error.c_str());
        QCOMPARE(o.stats.stop_reason, std::string("stop"));
        QCOMPARE(o.stats.text, std::string());
        QCOMPARE(o.stats.tool_calls.size(), size_t(2));
        QCOMPARE(o.stats.tool_calls[0].id, std::string("chatcmpl-tool-a1"));
        QCOMPARE(o.stats.tool_calls[0].name, std::string("sql_query"));
        QCOMPARE(o.stats.tool_calls[0].arguments,
                 std::string("{\"query\": \"SELECT SUM(amount) AS total FROM sales\"}"));
        QCOMPARE(o.stats.tool_calls[1].id, std::string("chatcmpl-tool-b2"));
        QCOMPARE(o.stats.tool_calls[1].name, std::string("sql_query"));
        QCOMPARE(o.stats.tool_calls[1].arguments,
                 std::string("{\"query\":\"SELECT year FROM sales ORDER BY year\"}"));
    }

    // ... and run_agent_turn runs them (render_tool_calls), sends the results back and gets
    // the answer in words.
    void structuredToolCallsRunInAnAgentTurn() {
        const QString csv =
            test::scratchDir(QStringLiteral("remote-client-tools")) + QStringLiteral("/sales.csv");
        {
            QFile f(csv);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("year,amount\n2023,150.25\n2024,190\n");
        }
        auto sql = SqlTool::open_csv({csv.toStdString()});
        QVERIFY(sql.has_value());
        RemoteOptions ro;
        ro.base_url = base_ + "/tools/v1";
        ro.model = std::string(1, 'm');
        ro.api_key = std::string(1, 'k');
        RemoteBackend backend(ro);
        const int before = tool_calls_.load();
        GenerateAnswer generate = [&](const std::vector<Message>& m,
                                      const std::string& tools) -> Expected<std::string> {
            Request r;
            r.messages = m;
            r.tools_json = tools;
            RequestStats st;
            std::mutex mu;
            r.callbacks.on_done = [&](const RequestStats& s) {
                std::lock_guard lk(mu);
                st = s;
            };
            backend.wait(backend.submit(std::move(r)));
            std::lock_guard lk(mu);
            if (st.stop_reason == "error")
                return make_error(ErrorCode::Io, "remote answer failed");
            return st.text + render_tool_calls(st.tool_calls);
        };
        auto turn = run_agent_turn(generate, {{"user", "How did sales go?", {}, {}}}, *sql);
        QVERIFY2(turn.has_value(), turn ? "" : turn.error().to_string().c_str());
        QCOMPARE(tool_calls_.load() - before, 2);
        QCOMPARE(turn->rounds.size(), size_t(2));
        QVERIFY(turn->rounds[0].ok && turn->rounds[1].ok);
        QCOMPARE(turn->rounds[0].call.name, std::string("sql_query"));
        QVERIFY2(turn->rounds[0].result.find("340.25") != std::string::npos,
                 turn->rounds[0].result.c_str());
        QVERIFY2(turn->rounds[1].result.find("| 2023 |\n| 2024 |") != std::string::npos,
                 turn->rounds[1].result.c_str());
        QCOMPARE(turn->answer, std::string("Sales rose to 190."));
    }

    void streamWithoutDoneIsAnErrorKeepingThePartialAnswer() {
        Outcome o = ask(base_ + "/nodone/v1");
        QCOMPARE(o.done_calls, 1);
        QCOMPARE(o.stats.stop_reason, std::string("error"));
        QVERIFY2(o.error.find("lost after 2 tokens") != std::string::npos, o.error.c_str());
        QCOMPARE(o.stats.text, std::string("ab"));
    }

    void errorEventMidAnswer() {
        Outcome o = ask(base_ + "/errevent/v1");
        QCOMPARE(o.stats.stop_reason, std::string("error"));
        QVERIFY2(o.error.find("boom: out of KV") != std::string::npos, o.error.c_str());
        QCOMPARE(o.stats.text, std::string("x"));
    }

    void serverErrorBodyIsShown() {
        Outcome o = ask(base_ + "/detail/v1");
        QCOMPARE(o.stats.stop_reason, std::string("error"));
        QVERIFY2(o.error.find("HTTP 500") != std::string::npos &&
                     o.error.find("engine crashed") != std::string::npos,
                 o.error.c_str());
    }

    void httpsWithACertificateAuthority() {
        if (folio::test::underThreadSanitizer())
            QSKIP("starts openssl (a child process): not under LLVM 14's ThreadSanitizer");
        // A self-signed certificate for 127.0.0.1, trusted through ca_cert_file.
        const QString dir = folio::test::scratchDir(QStringLiteral("remote-tls"));
        const QString cert = dir + QStringLiteral("/cert.pem"),
                      key = dir + QStringLiteral("/key.pem");
        QProcess openssl;
        openssl.start(QStringLiteral("openssl"),
                      {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                       QStringLiteral("rsa:2048"), QStringLiteral("-nodes"),
                       QStringLiteral("-keyout"), key, QStringLiteral("-out"), cert,
                       QStringLiteral("-days"), QStringLiteral("1"), QStringLiteral("-subj"),
                       QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-addext"),
                       QStringLiteral("subjectAltName=IP:127.0.0.1")});
        if (!openssl.waitForFinished(30000) || openssl.exitCode() != 0)
            QSKIP("the openssl program is not available");
        httplib::SSLServer tls(cert.toUtf8().constData(), key.toUtf8().constData());
        QVERIFY(tls.is_valid());
        std::atomic<int> unused{0};
        routes(tls, unused);
        Running on(tls);
        const std::string base = "https://127.0.0.1:" + std::to_string(on.port()) + "/ok/v1";
        Outcome trusted = ask(base, cert.toStdString());
        QVERIFY2(trusted.error.empty(), trusted.error.c_str());
        QCOMPARE(trusted.text, std::string("Hello"));
        Outcome untrusted = ask(base); // the system's CAs do not know this certificate
        QCOMPARE(untrusted.stats.stop_reason, std::string("error"));
        QVERIFY(untrusted.text.empty());
    }
};

QTEST_GUILESS_MAIN(TestRemoteClient)
#include "test_remote_client.moc"
