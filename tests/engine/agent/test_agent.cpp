// Tool calls (engine/agent, folio/agent.h): the JSON reader, the Kimi-K2 tool-call parser on
// well-formed and broken model output, the read-only SQL tool on a real SQLite file and on CSV
// files (hostile queries refused, the file unchanged, time and row limits), and a whole turn
// with a scripted model (a test double for the model's text only) rendered by the real chat
// template.
#include "agent/json_value.h"
#include "folio/agent.h"
#include "support/finance_db.h"
#include "support/test_support.h"
#include "tokenizer/chat_template.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTest>

#include <sqlite3.h>

using namespace folio;

namespace {} // namespace

class TestAgent : public QObject {
    Q_OBJECT
private slots:
    void json() {
        auto v = agent::parse_json(" {\"query\": \"SELECT \\\"a\\\"\\n\", \"n\": -1.5e2, "
                                   "\"ok\": true, \"list\": [1, null, "
                                   "\"\\u00e9\\ud83d\\ude00\"]} ");
        QVERIFY(v.has_value());
        QCOMPARE(v->find("query")->string, std::string("SELECT \"a\"\n"));
        QCOMPARE(v->find("n")->number, -150.0);
        QVERIFY(v->find("ok")->boolean);
        QCOMPARE(v->find("list")->array.at(2).string, std::string("é😀"));
        for (const char* bad :
             {"{", "{\"a\" 1}", "[1,]", "{\"a\":1} x", "\"\\ud800\"", "tru", "\"\x01\"", "01x"})
            QVERIFY2(!agent::parse_json(bad).has_value(), bad);
        QVERIFY(!agent::parse_json(std::string(1000, '[')).has_value()); // bounded nesting
        QCOMPARE(agent::json_quote("a\"b\\c\n\x01"), std::string("\"a\\\"b\\\\c\\n\\u0001\""));
    }

    void parseToolCalls() {
        const ParsedAnswer plain = parse_tool_calls("  Revenue grew 12%.  ");
        QCOMPARE(plain.content, std::string("Revenue grew 12%."));
        QVERIFY(plain.calls.empty());

        const ParsedAnswer two = parse_tool_calls(
            "Let me check.<|tool_calls_section_begin|><|tool_call_begin|>functions.sql_query:0"
            "<|tool_call_argument_begin|>{\"query\": \"SELECT 1\"}<|tool_call_end|>"
            "<|tool_call_begin|> functions.sql_query:1 <|tool_call_argument_begin|> "
            "{\"query\": \"SELECT 2\"} <|tool_call_end|><|tool_calls_section_end|>");
        QCOMPARE(two.content, std::string("Let me check."));
        QCOMPARE(two.calls.size(), size_t(2));
        QCOMPARE(two.calls[0].call.id, std::string("functions.sql_query:0"));
        QCOMPARE(two.calls[0].call.name, std::string("sql_query"));
        QCOMPARE(two.calls[1].call.arguments, std::string("{\"query\": \"SELECT 2\"}"));
        QVERIFY(two.calls[0].error.empty() && two.calls[1].error.empty());

        // What models get wrong: no section markers, no section end, an unclosed call, bad JSON.
        const ParsedAnswer loose = parse_tool_calls(
            "<|tool_call_begin|>functions.sql_query:0<|tool_call_argument_begin|>{\"query\": "
            "\"SELECT 3\"}<|tool_call_end|><|tool_call_begin|>functions.sql_query:1"
            "<|tool_call_argument_begin|>{\"query\": ");
        QCOMPARE(loose.calls.size(), size_t(2));
        QVERIFY(loose.calls[0].error.empty());
        QVERIFY(QString::fromStdString(loose.calls[1].error).contains("not closed"));
        const ParsedAnswer badJson =
            parse_tool_calls("<|tool_calls_section_begin|><|tool_call_begin|>functions.sql_query:0"
                             "<|tool_call_argument_begin|>SELECT 1<|tool_call_end|>");
        QCOMPARE(badJson.calls.size(), size_t(1));
        QVERIFY(QString::fromStdString(badJson.calls[0].error).contains("JSON"));
        const ParsedAnswer array = parse_tool_calls(
            "<|tool_call_begin|>f:0<|tool_call_argument_begin|>[1]<|tool_call_end|>");
        QVERIFY(QString::fromStdString(array.calls.at(0).error).contains("object"));
        const ParsedAnswer noArgs = parse_tool_calls("<|tool_call_begin|>functions.x:0");
        QVERIFY(!noArgs.calls.at(0).error.empty());
    }

    void sqlOnSqliteFile() {
        const QString db = folio::test::makeFinanceDatabase(folio::test::scratchDir("agent-sql"));
        const QByteArray before = folio::test::fileDigest(db);
        auto sql = SqlTool::open_sqlite(db.toStdString());
        QVERIFY2(sql.has_value(), sql ? "" : sql.error().to_string().c_str());
        QVERIFY(QString::fromStdString(sql->schema()).contains("CREATE TABLE revenue"));
        auto r = sql->query("SELECT year, sum(amount) AS total FROM revenue GROUP BY year "
                            "ORDER BY year;");
        QVERIFY2(r.has_value(), r ? "" : r.error().to_string().c_str());
        QCOMPARE(r->columns, (std::vector<std::string>{"year", "total"}));
        QCOMPARE(r->rows.size(), size_t(3));
        QCOMPARE(r->rows[1], (std::vector<std::string>{"2023", "220.25"}));
        QVERIFY(QString::fromStdString(r->to_markdown()).contains("| 2023 | 220.25 |"));

        SqlLimits two;
        two.max_rows = 2;
        auto limited = sql->query("SELECT * FROM revenue", two);
        QVERIFY(limited && limited->rows.size() == 2 && limited->truncated);

        SqlLimits fast;
        fast.timeout_seconds = 0.2;
        auto endless = sql->query("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)"
                                  " SELECT count(*) FROM n",
                                  fast);
        QVERIFY(!endless.has_value());
        QVERIFY2(QString::fromStdString(endless.error().message).contains("stopped"),
                 endless.error().message.c_str());

        for (const char* hostile :
             {"INSERT INTO revenue VALUES (2025, 'x', 1)", "DELETE FROM revenue",
              "DROP TABLE revenue", "CREATE TABLE t (a)", "UPDATE revenue SET amount = 0",
              "ATTACH DATABASE '/tmp/evil.db' AS evil", "PRAGMA writable_schema = 1",
              "PRAGMA query_only = 0", "SELECT 1; DELETE FROM revenue", "BEGIN",
              "SELECT load_extension('/tmp/evil.so')", "VACUUM INTO '/tmp/copy.db'"}) {
            auto res = sql->query(hostile);
            QVERIFY2(!res.has_value(), hostile);
        }
        auto still = sql->query("SELECT count(*) FROM revenue");
        QVERIFY(still && still->rows[0][0] == "5");
        QCOMPARE(folio::test::fileDigest(db), before);
        QVERIFY(!QFile::exists("/tmp/copy.db"));

        QVERIFY(!SqlTool::open_sqlite("/nonexistent/x.db").has_value());
        const QString notDb = folio::test::scratchDir("agent-notdb") + "/x.db";
        QFile f(notDb);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not a database, just text that is long enough to be read");
        f.close();
        QVERIFY(!SqlTool::open_sqlite(notDb.toStdString()).has_value());
    }

    void sqlOnCsv() {
        const QString dir = folio::test::scratchDir("agent-csv");
        QFile f(dir + "/Quarterly Sales.csv");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("quarter,region,amount,note\r\nQ1,\"North, East\",100,\"said \"\"hi\"\"\"\n"
                "Q2,South,25.5,\"two\nlines\"\nQ3,North,9,\n");
        f.close();
        auto sql = SqlTool::open_csv({(dir + "/Quarterly Sales.csv").toStdString()});
        QVERIFY2(sql.has_value(), sql ? "" : sql.error().to_string().c_str());
        auto r = sql->query("SELECT region, amount FROM Quarterly_Sales WHERE amount > 10 "
                            "ORDER BY amount DESC");
        QVERIFY2(r.has_value(), r ? "" : r.error().to_string().c_str());
        QCOMPARE(r->rows.size(), size_t(2)); // numeric comparison: 9 < 10 although "9" > "10"
        QCOMPARE(r->rows[0][0], std::string("North, East"));
        auto note = sql->query("SELECT note FROM Quarterly_Sales WHERE quarter = 'Q1'");
        QCOMPARE(note->rows.at(0).at(0), std::string("said \"hi\""));
        QVERIFY(!sql->query("DELETE FROM Quarterly_Sales").has_value());
        QVERIFY(!SqlTool::open_csv({(dir + "/missing.csv").toStdString()}).has_value());
    }

    // A whole turn: the scripted model asks for a query, sees the table, answers with it.
    void agentTurnWithScriptedModel() {
        const QString db = folio::test::makeFinanceDatabase(folio::test::scratchDir("agent-turn"));
        auto sql = SqlTool::open_sqlite(db.toStdString());
        QVERIFY(sql.has_value());
        int calls = 0;
        std::string seenTools;
        std::vector<std::string> rendered;
        GenerateAnswer model = [&](const std::vector<Message>& msgs,
                                   const std::string& tools) -> Expected<std::string> {
            ++calls;
            seenTools = tools;
            std::vector<tokenizer::ChatMessage> chat;
            for (const Message& m : msgs) {
                std::vector<tokenizer::ToolCall> tc;
                for (const auto& c : m.tool_calls)
                    tc.push_back({c.id, c.name, c.arguments});
                chat.push_back({m.role, m.content, 0, tc});
            }
            tokenizer::ChatOptions opt;
            opt.tools_json = tools;
            auto text =
                tokenizer::apply_chat_template(tokenizer::TemplateKind::KimiK2, chat, true, opt);
            if (!text)
                return text.error();
            rendered.push_back(*text);
            if (calls == 1)
                return std::string(
                    "I will query the data.<|tool_calls_section_begin|><|tool_call_begin|>"
                    "functions.sql_query:0<|tool_call_argument_begin|>{\"query\": \"SELECT "
                    "sum(amount) AS cloud FROM revenue WHERE segment = 'Cloud'\"}"
                    "<|tool_call_end|><|tool_calls_section_end|>");
            const std::string& last = msgs.back().content;
            const size_t at = last.find("460.75");
            return std::string(at == std::string::npos ? "I could not find it."
                                                       : "Cloud revenue totals 460.75.");
        };
        std::vector<Message> conversation = {{"system", "You analyse reports.", {}, {}},
                                             {"user", "Total cloud revenue?", {}, {}}};
        auto turn = run_agent_turn(model, conversation, *sql);
        QVERIFY2(turn.has_value(), turn ? "" : turn.error().to_string().c_str());
        QCOMPARE(calls, 2);
        QCOMPARE(turn->answer, std::string("Cloud revenue totals 460.75."));
        QCOMPARE(turn->rounds.size(), size_t(1));
        QVERIFY(turn->rounds[0].ok);
        QVERIFY(QString::fromStdString(turn->rounds[0].result).contains("460.75"));
        QCOMPARE(turn->messages.size(), size_t(5)); // system, user, assistant+call, tool, answer
        QCOMPARE(turn->messages[3].role, std::string("tool"));
        QVERIFY(QString::fromStdString(seenTools).contains("sql_query"));
        QVERIFY(QString::fromStdString(seenTools).contains("CREATE TABLE revenue"));
        const QString second = QString::fromStdString(rendered.at(1));
        QVERIFY(second.startsWith("<|im_system|>tool_declare<|im_middle|>"));
        QVERIFY(second.contains("<|tool_call_begin|>functions.sql_query:0"));
        QVERIFY(
            second.contains("<|im_system|>tool<|im_middle|>## Return of functions.sql_query:0"));

        // A hostile call is refused and the model is told why; the turn goes on.
        calls = 0;
        GenerateAnswer hostile = [&](const std::vector<Message>& msgs,
                                     const std::string&) -> Expected<std::string> {
            if (++calls == 1)
                return std::string("<|tool_call_begin|>functions.sql_query:0"
                                   "<|tool_call_argument_begin|>{\"query\": \"DROP TABLE "
                                   "revenue\"}<|tool_call_end|>");
            return msgs.back().content;
        };
        auto refused = run_agent_turn(hostile, conversation, *sql);
        QVERIFY(refused.has_value());
        QVERIFY(!refused->rounds.at(0).ok);
        QVERIFY(QString::fromStdString(refused->answer).contains("error"));
        QVERIFY(sql->query("SELECT count(*) FROM revenue").has_value());

        // A model that keeps calling tools stops after max_rounds.
        calls = 0;
        GenerateAnswer loop = [&](const std::vector<Message>&,
                                  const std::string&) -> Expected<std::string> {
            ++calls;
            return std::string("<|tool_call_begin|>functions.sql_query:0"
                               "<|tool_call_argument_begin|>{\"query\": \"SELECT 1\"}"
                               "<|tool_call_end|>");
        };
        auto capped = run_agent_turn(loop, conversation, *sql, 3);
        QVERIFY(capped.has_value());
        QCOMPARE(calls, 4);
        QCOMPARE(capped->rounds.size(), size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestAgent)
#include "test_agent.moc"
