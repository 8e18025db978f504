#pragma once
// The scripted model of test_table_extraction (a server that takes images; the request it
// receives is the real one the worker builds) and the test's small helpers.

#include <QFile>
#include <QString>
#include <QStringList>

#include "backend/engine_worker.h"
#include "support/test_support.h"

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

using namespace folio;
using namespace folio::ui;

namespace {

QString sample(const QString& name) {
    return folio::test::builtProgram(QStringLiteral("generated/samples/") + name);
}

// The sample chart's numbers (tools/sample/make_sample.cpp: quarterly revenue, FY2024 and
// FY2025), as a model following the instruction would write them; the growth column's header
// has a comma and quotes, and Q4's note cell a comma, for the CSV quoting.
const char* const kValid =
    "Here is the table.\n\n"
    "| Quarter | FY2024 revenue ($m) | FY2025 revenue ($m) | Growth, \"YoY\" (%) |\n"
    "| :--- | ---: | ---: | ---: |\n"
    "| Q1 | 1002 | 1071 | 6.9 |\n"
    "| Q2 | 1031 | 1108 | 7.5 |\n"
    "| Q3 | 1049 | 1135 | 8.2 |\n"
    "| Q4 | 1108 | 1186 | 7.0 |\n";
const char* const kRagged = "| Year | Revenue (EUR m) |\n|---|---|\n| 2021 | 96.2 |\n"
                            "| 2022 | 101.4 |\n| 2023 |\n| 2024 | 127.1 |\n";
const char* const kProse = "The chart shows revenue growing every year, from about 96 million "
                           "in 2021 to 131 million in 2025.";

// A server that takes images, answering from a script on a thread of its own, in pieces.
class ScriptedBackend : public ChatBackend {
public:
    using Script = std::function<std::string(const Request&)>;
    explicit ScriptedBackend(Script script) : script_(std::move(script)) {}
    ~ScriptedBackend() override {
        for (auto& t : threads_)
            t.join();
    }
    RequestId submit(Request r) override {
        std::lock_guard lk(m_);
        const RequestId id = next_++;
        requests_.push_back(r);
        threads_.emplace_back([this, id, r = std::move(r)] {
            const std::string answer = script_(r);
            if (answer == "<error>") {
                r.callbacks.on_error(make_error(ErrorCode::InvalidArgument, "server said 400"));
            } else {
                RequestStats st;
                st.prompt_tokens = 100;
                for (size_t at = 0; at < answer.size(); at += 16) {
                    r.callbacks.on_token(std::string_view(answer).substr(at, 16), -1);
                    ++st.generated_tokens;
                }
                st.text = answer;
                st.stop_reason = "eos";
                r.callbacks.on_done(st);
            }
            std::lock_guard lk(m_);
            done_.push_back(id);
            cv_.notify_all();
        });
        return id;
    }
    void cancel(RequestId) override {}
    void cancel_all() override {}
    void wait(RequestId id) override {
        std::unique_lock lk(m_);
        cv_.wait(lk, [&] { return std::find(done_.begin(), done_.end(), id) != done_.end(); });
    }
    ChatBackendStatus status() const override {
        ChatBackendStatus s;
        s.kind = "remote"; // so the worker sends images, as to a server that takes them
        return s;
    }
    std::vector<Request> requests() const {
        std::lock_guard lk(m_);
        return requests_;
    }

private:
    Script script_;
    mutable std::mutex m_;
    std::condition_variable cv_;
    std::vector<Request> requests_;
    std::vector<RequestId> done_;
    std::vector<std::thread> threads_;
    RequestId next_ = 1;
};

// An RFC 4180 reader (from the RFC's grammar; fields may be quoted, "" is a quote).
QList<QStringList> readCsv(const QString& text) {
    QList<QStringList> records;
    QStringList record;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                field += QLatin1Char('"');
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            record << field;
            field.clear();
        } else if (c == QLatin1Char('\r') && i + 1 < text.size() &&
                   text[i + 1] == QLatin1Char('\n')) {
            record << field;
            records << record;
            record.clear();
            field.clear();
            ++i;
        } else {
            field += c;
        }
    }
    return records;
}

QString readText(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

} // namespace
