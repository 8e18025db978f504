// An answer's figures checked against its documents (issue #46 §2, core/chat/answer_figures.h):
// the planted figures of test_check_figures_cli on the sample report as the workbench reads it,
// their places in the answer, the count line, and the chat file keeping them (old files load).
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "core/chat/answer_figures.h"
#include "core/chat/chat_json.h"
#include "core/documents/document_loader.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

// The answer of test_check_figures_cli: 9 verified, 3 on another page, 3 not found, 2 uncited.
const char* const kAnswer =
    "## Northwind in 2025\n"
    "Northwind's revenue rose 7.4% to $4.5 billion in 2025 [p. 2].\n"
    "Operating margin was 15.8% [p. 2].\n"
    "Net income was $512 million, up 12.1% [p. 3].\n"
    "Free cash flow was $640 million [p. 2].\n"
    "The order book stood at $2.31 billion [p. 4].\n"
    "Research and development spending was $389 million, 8.6% of revenue [p. 2].\n"
    "Diluted earnings per share were $3.14 [p. 3].\n"
    "Northwind employs 11,400 people.\n"
    "The fourth quarter was the strongest at $1,186 million [p. 4].\n"
    "净利润为5.12亿美元[p. 5]。\n"
    "2026年营业收入预计增长5%至7%[p. 7]。\n"
    "Synergies of $18 million are targeted by 2027.\n"
    "The dividend was 96 cents [p. 6].\n"
    "Asia's share of revenue rose to 43% [p. 6].\n";

QString sampleReport() {
    return folio::test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
}

const CheckedFigure* find(const QList<CheckedFigure>& figures, const QString& text) {
    for (const CheckedFigure& f : figures)
        if (f.figure == text)
            return &f;
    return nullptr;
}

} // namespace

class TestAnswerFigures : public QObject {
    Q_OBJECT
    Document report_;

private slots:
    void initTestCase() {
        if (!QFile::exists(sampleReport())) {
            if (folio::test::isCi())
                QFAIL("the sample report is missing and CI=true (target folio_samples)");
            QSKIP("the sample report is missing: build the folio_samples target");
        }
        report_ = loadDocument(sampleReport());
        QCOMPARE(report_.state, Document::State::Ready);
    }

    void plantedFiguresOnTheSampleReport() {
        ChatMessage answer;
        answer.role = ChatMessage::Role::Assistant;
        answer.text = QString::fromUtf8(kAnswer);
        answer.citedDocuments = {{report_.fingerprint, report_.title, report_.pageCount}};
        const QList<FigureSource> sources = figureSources(answer, {report_});
        QCOMPARE(sources.size(), 1);
        QCOMPARE(sources[0].pages.size(), report_.pageCount);

        QElapsedTimer timer;
        timer.start();
        const QList<CheckedFigure> figures = checkAnswerFigures(answer.text, sources);
        qInfo("sample report (%d pages): %d figures checked in %.2f ms", int(report_.pageCount),
              int(figures.size()), double(timer.nsecsElapsed()) / 1e6);

        QCOMPARE(figures.size(), 17);
        const FigureTally t = tallyFigures(figures);
        QCOMPARE(t.verified, 9);
        QCOMPARE(t.otherPage, 3);
        QCOMPARE(t.notFound, 3);
        QCOMPARE(t.uncited, 2);
        QCOMPARE(
            figuresLine(figures),
            QStringLiteral("Figures: 9 verified · 3 on another page · 3 not found · 2 uncited"));
        // Each figure stands where it says in the answer, after Chinese text too.
        for (const CheckedFigure& f : figures)
            QVERIFY2(figureStandsIn(f, answer.text), qPrintable(f.figure));

        const CheckedFigure* orders = find(figures, QStringLiteral("$2.31 billion"));
        QVERIFY(orders);
        QCOMPARE(orders->state, CheckedFigure::State::OtherPage);
        QCOMPARE(orders->document, 0);
        QCOMPARE(orders->page, 4);
        QCOMPARE(orders->foundPage, 5);
        QVERIFY(orders->line.contains(QStringLiteral("23.1亿美元")));
        const CheckedFigure* net = find(figures, QStringLiteral("5.12亿美元"));
        QVERIFY(net);
        QCOMPARE(net->state, CheckedFigure::State::Verified);
        QCOMPARE(net->foundPage, 5);
        const CheckedFigure* staff = find(figures, QStringLiteral("11,400"));
        QVERIFY(staff);
        QCOMPARE(staff->state, CheckedFigure::State::Uncited);
        QCOMPARE(staff->document, -1);
    }

    // The one-click fix (issue #46 §2): "$2.31 billion [p. 4]" is on page 5; the fixed answer
    // cites page 5, where the checker then verifies it, and nothing else of the answer moves.
    void aCitationFixMakesTheFigureVerified() {
        ChatMessage answer;
        answer.role = ChatMessage::Role::Assistant;
        answer.text = QString::fromUtf8(kAnswer);
        answer.citedDocuments = {{report_.fingerprint, report_.title, report_.pageCount}};
        const QList<FigureSource> sources = figureSources(answer, {report_});
        const QList<CheckedFigure> figures = checkAnswerFigures(answer.text, sources);
        const CheckedFigure* orders = find(figures, QStringLiteral("$2.31 billion"));
        QVERIFY(orders);
        const QString fixed = answerWithCitationFixed(answer.text, *orders, sources);
        QString expected = answer.text;
        expected.replace(QStringLiteral("$2.31 billion [p. 4]"),
                         QStringLiteral("$2.31 billion [p. 5]"));
        QCOMPARE(fixed, expected);
        const QList<CheckedFigure> after = checkAnswerFigures(fixed, sources);
        const CheckedFigure* now = find(after, QStringLiteral("$2.31 billion"));
        QVERIFY(now);
        QCOMPARE(now->state, CheckedFigure::State::Verified);
        QCOMPARE(now->page, 5);
        QCOMPARE(tallyFigures(after).verified, 10);
        QCOMPARE(tallyFigures(after).otherPage, 2);
        // A verified figure has nothing to fix.
        QCOMPARE(answerWithCitationFixed(fixed, *now, sources), QString());
    }

    // Figures of an answer that queried data are checked against the query results (issue #46
    // §2): without a page citation, a figure is verified in the result that holds it (the row as
    // its line) or not found; a figure with a page citation is still checked on its page.
    void figuresOfAQueryAnswerAreCheckedAgainstItsResults() {
        ChatMessage answer;
        answer.role = ChatMessage::Role::Assistant;
        answer.text = QStringLiteral("Asia had $1.19 billion and Europe $1.3 billion. The report "
                                     "says revenue was 4,500 [p. 1].");
        ToolCallRecord failed;
        failed.name = QStringLiteral("sql_query");
        failed.result = QStringLiteral("error: no such table: sales");
        failed.done = true;
        ToolCallRecord call;
        call.name = QStringLiteral("sql_query");
        call.result = QStringLiteral("| region | revenue (USD million) |\n| --- | --- |\n"
                                     "| Europe | 1,071.0 |\n| Asia | 1,186.0 |\n");
        call.ok = call.done = true;
        answer.toolCalls = {failed, call};
        const QList<MarkdownTable> tables = queryResults(answer);
        QCOMPARE(tables.size(), 2);
        QVERIFY(tables[0].rows.isEmpty());
        QCOMPARE(tables[1].rows.size(), 2);
        const QList<FigureSource> sources = {{QStringLiteral("Annual Report"),
                                              QStringLiteral("report.pdf"),
                                              {QStringLiteral("Revenue 4,500")}}};
        const QList<CheckedFigure> figures = checkAnswerFigures(answer.text, sources, tables);
        QCOMPARE(figures.size(), 3);
        const CheckedFigure* asia = find(figures, QStringLiteral("$1.19 billion"));
        QVERIFY(asia);
        QCOMPARE(asia->state, CheckedFigure::State::Verified);
        QCOMPARE(asia->table, 1);
        QCOMPARE(asia->line, QStringLiteral("region = Asia | revenue (USD million) = 1,186.0"));
        const CheckedFigure* europe = find(figures, QStringLiteral("$1.3 billion"));
        QVERIFY(europe);
        QCOMPARE(europe->state, CheckedFigure::State::NotFound);
        QCOMPARE(europe->table, CheckedFigure::kNotInResults);
        const CheckedFigure* revenue = find(figures, QStringLiteral("4,500"));
        QVERIFY(revenue);
        QCOMPARE(revenue->state, CheckedFigure::State::Verified);
        QCOMPARE(revenue->foundPage, 1);
        QCOMPARE(revenue->table, -1);
        // Without results the same sentence is only "uncited".
        const QList<CheckedFigure> plain = checkAnswerFigures(answer.text, sources);
        QCOMPARE(find(plain, QStringLiteral("$1.19 billion"))->state,
                 CheckedFigure::State::Uncited);
    }

    // A document that has left the chat keeps its place in "doc N" but has no text.
    void sourcesFollowTheAnswersDocuments() {
        Document other;
        other.title = QStringLiteral("Other");
        other.path = QStringLiteral("/x/other.pdf");
        other.fingerprint = QStringLiteral("other");
        other.state = Document::State::Ready;
        other.pageTexts = {QStringLiteral("Revenue 10")};
        ChatMessage answer;
        answer.citedDocuments = {{QStringLiteral("gone"), QStringLiteral("Gone"), 3},
                                 {report_.fingerprint, report_.title, report_.pageCount}};
        const QList<FigureSource> sources = figureSources(answer, {other, report_});
        QCOMPARE(sources.size(), 2);
        QCOMPARE(sources[0].title, QStringLiteral("Gone"));
        QVERIFY(sources[0].pages.isEmpty());
        QCOMPARE(sources[1].pages.size(), report_.pageCount);
        QCOMPARE(sources[1].fileName, QStringLiteral("sample-report.pdf"));
        // Saved before answers recorded their documents: the PDFs in the chat's order.
        QCOMPARE(figureSources(ChatMessage(), {other, report_}).size(), 2);
        QCOMPARE(figureSources(ChatMessage(), {}).size(), 0);
    }

    void countLineLeavesOutZeros() {
        CheckedFigure f;
        f.state = CheckedFigure::State::Verified;
        QList<CheckedFigure> figures{f, f};
        f.state = CheckedFigure::State::NotFound;
        figures << f;
        QCOMPARE(figuresLine(figures), QStringLiteral("Figures: 2 verified · 1 not found"));
        QVERIFY(figuresLine({}).isEmpty());
    }

    // A long report: the answer cites a few pages, other_page searches them all (measured).
    void longReportIsFast() {
        FigureSource source{QStringLiteral("Long"), QStringLiteral("long.pdf"), {}};
        for (int p = 1; p <= 300; ++p) {
            QString text;
            for (int line = 0; line < 40; ++line)
                text += QStringLiteral("Segment %1 revenue rose %2.%3% to $%4,%5 million in "
                                       "the year under review.\n")
                            .arg(line)
                            .arg(p % 17)
                            .arg(line % 10)
                            .arg(p)
                            .arg(100 + line);
            source.pages << text;
        }
        QString answer;
        for (int k = 0; k < 20; ++k)
            answer += QStringLiteral("Revenue rose %1.4% to $%2,105 million [p. %3].\n")
                          .arg(k % 17)
                          .arg(k * 7 + 1)
                          .arg(k * 13 + 2);
        QElapsedTimer timer;
        timer.start();
        const QList<CheckedFigure> figures = checkAnswerFigures(answer, {source});
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        qInfo("300 pages x 40 lines: %d figures checked in %.1f ms", int(figures.size()), ms);
        QCOMPARE(figures.size(), 40);
        QCOMPARE(tallyFigures(figures).uncited, 0);
    }

    void chatFileKeepsTheFigures() {
        ChatSession chat = ChatSession::create();
        ChatMessage answer;
        answer.role = ChatMessage::Role::Assistant;
        answer.text = QStringLiteral("Revenue was $4.5 billion [p. 2], staff 11,400.");
        answer.id = 2;
        answer.parentId = 1;
        CheckedFigure verified;
        verified.figure = QStringLiteral("$4.5 billion");
        verified.offset = 12;
        verified.length = 12;
        verified.state = CheckedFigure::State::Verified;
        verified.document = 0;
        verified.page = 2;
        verified.foundPage = 2;
        verified.line = QStringLiteral("Revenue rose 7.4% to $4.50 billion");
        CheckedFigure uncited;
        uncited.figure = QStringLiteral("11,400");
        uncited.offset = 40;
        uncited.length = 6;
        answer.figures = {verified, uncited};
        chat.messages = {answer};
        const QJsonObject json = chatToJson(chat);
        const QJsonArray rows = json[QStringLiteral("messages")]
                                    .toArray()[0]
                                    .toObject()[QStringLiteral("figures")]
                                    .toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject()[QStringLiteral("state")].toString(),
                 QStringLiteral("verified"));
        QCOMPARE(rows[0].toObject()[QStringLiteral("doc")].toInt(), 1);
        QVERIFY(rows[1].toObject()[QStringLiteral("doc")].isNull());

        ChatSession back;
        QString error;
        const QJsonObject reread = QJsonDocument::fromJson(QJsonDocument(json).toJson()).object();
        QVERIFY2(chatFromJson(reread, back, &error), qPrintable(error));
        QCOMPARE(back.messages.size(), 1);
        QCOMPARE(back.messages[0].figures, answer.figures);
    }

    void oldChatFileWithoutFiguresLoads() {
        const QByteArray old = R"({"format": "folio-chat", "version": 3, "id": "old",
            "title": "", "system_prompt": "", "messages": [
              {"role": "user", "text": "Revenue?", "time": "2025-01-01T10:00:00.000", "id": 1,
               "parent": 0},
              {"role": "assistant", "text": "$4.5 billion [p. 2].",
               "time": "2025-01-01T10:00:05.000", "id": 2, "parent": 1}]})";
        ChatSession chat;
        QString error;
        QVERIFY2(chatFromJson(QJsonDocument::fromJson(old).object(), chat, &error),
                 qPrintable(error));
        QCOMPARE(chat.messages.size(), 2);
        QVERIFY(chat.messages[1].figures.isEmpty());
        // A state this Folio does not know is skipped, the rest kept.
        QJsonObject json = chatToJson(chat);
        QJsonArray messages = json[QStringLiteral("messages")].toArray();
        QJsonObject answer = messages[1].toObject();
        answer[QStringLiteral("figures")] =
            QJsonArray{QJsonObject{{QStringLiteral("figure"), QStringLiteral("$4.5 billion")},
                                   {QStringLiteral("state"), QStringLiteral("verified")}},
                       QJsonObject{{QStringLiteral("figure"), QStringLiteral("x")},
                                   {QStringLiteral("state"), QStringLiteral("someday")}}};
        messages[1] = answer;
        json[QStringLiteral("messages")] = messages;
        ChatSession later;
        QVERIFY(chatFromJson(json, later, &error));
        QCOMPARE(later.messages[1].figures.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestAnswerFigures)
#include "test_answer_figures.moc"
