// Questions about documents longer than the context (issue #22 §2, §3): page lists, BM25 page
// ranking against hand-computed scores, page selection under a token budget with cached
// per-page counts, and prompt plans counted with the demo model's real tokenizer: a 300-page
// report far larger than a 4,096-token context gets a prompt that fits (and runs), holds the
// page with the question's rare term and the pinned pages, and says which pages went in; a
// document that fits goes in whole with a system turn that is the same from question to question.
#include <QSignalSpy>
#include <QtTest>

#include "backend/engine_worker.h"
#include "backend/load_options.h"
#include "chat/context_fit.h"
#include "chat/conversation_prompt.h"
#include "core/pipeline/page_ranges.h"
#include "core/pipeline/page_ranking.h"
#include "core/pipeline/page_selection.h"
#include "support/test_support.h"

#include <cmath>

using namespace folio::ui;

namespace {

QString demoModel() {
    return folio::test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
}

// A counter whose counts are easy to compute by hand: one token per character, 10 per turn.
TokenCounter charCounter(const QString& id) {
    return TokenCounter(
        id, [](const QString& t) { return qint64(t.size()); },
        [](const QList<ChatTurn>& turns) {
            qint64 n = 0;
            for (const ChatTurn& t : turns)
                n += t.content.size() + 10;
            return n;
        });
}

// Page `p` of a synthetic report: distinct sentences from a small vocabulary (a linear
// congruential sequence seeded by the page), ~90 words.
QString syntheticPage(int p) {
    static const QStringList words = {
        QStringLiteral("revenue"),   QStringLiteral("margin"),    QStringLiteral("segment"),
        QStringLiteral("growth"),    QStringLiteral("customers"), QStringLiteral("costs"),
        QStringLiteral("quarter"),   QStringLiteral("region"),    QStringLiteral("outlook"),
        QStringLiteral("risk"),      QStringLiteral("capital"),   QStringLiteral("supply"),
        QStringLiteral("demand"),    QStringLiteral("pricing"),   QStringLiteral("inventory"),
        QStringLiteral("contracts"), QStringLiteral("the"),       QStringLiteral("of"),
        QStringLiteral("and"),       QStringLiteral("in")};
    quint32 state = 2654435761u * quint32(p + 1);
    QString text = QStringLiteral("Section %1.\n").arg(p);
    for (int w = 0; w < 90; ++w) {
        state = state * 1664525u + 1013904223u;
        text += words[int((state >> 16) % quint32(words.size()))];
        text += (w % 12 == 11) ? QStringLiteral(".\n") : QStringLiteral(" ");
    }
    return text + QStringLiteral("Figure %1 shows %2 units.\n").arg(p).arg(p * 37 % 1000);
}

} // namespace

class TestPageSelection : public QObject {
    Q_OBJECT
    EngineWorker* worker_ = nullptr;
    TokenCounter exact_;
    qint64 context_ = 0;

private slots:
    void initTestCase() {
        registerEngineTypes();
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }
    void cleanupTestCase() { delete worker_; }

    void parsesPageRanges() {
        QString error;
        QCOMPARE(parsePageRanges(QStringLiteral("1-4, 37"), 40, &error),
                 (QList<int>{1, 2, 3, 4, 37}));
        QVERIFY(error.isEmpty());
        QCOMPARE(parsePageRanges(QStringLiteral("9; 1\u20133 ,2"), 9), (QList<int>{1, 2, 3, 9}));
        QCOMPARE(parsePageRanges(QStringLiteral(" 5 - 6 "), 9), (QList<int>{5, 6}));
        QCOMPARE(parsePageRanges(QStringLiteral("8"), 8), QList<int>{8});
        QVERIFY(parsePageRanges(QString(), 8, &error).isEmpty());
        QVERIFY(error.isEmpty());
        // Bad input: no pages, and a message that says what is wrong.
        QVERIFY(parsePageRanges(QStringLiteral("0"), 8, &error).isEmpty());
        QVERIFY2(error.contains(QStringLiteral("page 0")), qPrintable(error));
        QVERIFY(parsePageRanges(QStringLiteral("5-3"), 8, &error).isEmpty());
        QVERIFY2(error.contains(QStringLiteral("backwards")), qPrintable(error));
        QVERIFY(parsePageRanges(QStringLiteral("2, x"), 8, &error).isEmpty());
        QVERIFY2(error.contains(QStringLiteral("\"x\"")), qPrintable(error));
        QVERIFY(parsePageRanges(QStringLiteral("9"), 8, &error).isEmpty());
        QVERIFY2(error.contains(QStringLiteral("Page 9 is beyond the document's 8 pages")),
                 qPrintable(error));
        QVERIFY(parsePageRanges(QStringLiteral("3-12"), 8, &error).isEmpty());
        QVERIFY2(error.contains(QStringLiteral("Page 12")), qPrintable(error));
        QVERIFY(parsePageRanges(QStringLiteral("1--3"), 8, &error).isEmpty());
        QVERIFY(!error.isEmpty());
    }

    void formatsPageRanges() {
        QList<int> pages = {1, 2, 3, 4, 118};
        for (int p = 37; p <= 52; ++p)
            pages << p;
        QCOMPARE(formatPageRanges(pages, 236),
                 QStringLiteral("pages 1\u20134, 37\u201352, 118 of 236"));
        QCOMPARE(formatPageRanges({3}, 8), QStringLiteral("page 3 of 8"));
        QCOMPARE(formatPageRanges({5, 3, 4, 3}, 8), QStringLiteral("pages 3\u20135 of 8"));
        QCOMPARE(formatPageRanges({2, 7}, 8), QStringLiteral("pages 2, 7 of 8"));
        QCOMPARE(formatPageRanges({}, 8), QStringLiteral("no pages of 8"));
        // Round trip through the parser (the en dash is accepted).
        std::sort(pages.begin(), pages.end());
        QCOMPARE(parsePageRanges(QStringLiteral("1\u20134, 37\u201352, 118"), 236), pages);
    }

    void splitsTextIntoTerms() {
        QCOMPARE(
            rankingTerms(QStringLiteral("Revenue ROSE 7.4% in Q3")),
            (QStringList{QStringLiteral("revenue"), QStringLiteral("rose"), QStringLiteral("7"),
                         QStringLiteral("4"), QStringLiteral("in"), QStringLiteral("q3")}));
        QCOMPARE(
            rankingTerms(QStringLiteral("营业收入 grew; Café")),
            (QStringList{QStringLiteral("营"), QStringLiteral("业"), QStringLiteral("收"),
                         QStringLiteral("入"), QStringLiteral("grew"), QStringLiteral("café")}));
    }

    // Scores computed by hand (k1 1.2, b 0.75, avgdl 3):
    //   idf(apple) = ln(1 + 2.5/1.5) = 0.980829, idf(cherry) = idf(banana) = ln(1.6) = 0.470004
    //   page 1, apple tf 2, |p| 3: 0.980829 * 2 * 2.2 / (2 + 1.2) = 1.348640
    //   page 2, cherry tf 1, |p| 2: 0.470004 * 2.2 / (1 + 1.2 * 0.75) = 0.544215
    //   page 3, cherry tf 3, |p| 4: 0.470004 * 3 * 2.2 / (3 + 1.2 * 1.25) = 0.689339
    void bm25MatchesHandComputedScores() {
        const Bm25Index index({QStringLiteral("apple banana apple"),
                               QStringLiteral("Banana, cherry."),
                               QStringLiteral("cherry cherry cherry date")});
        QCOMPARE(index.pageCount(), 3);
        QVERIFY(std::abs(index.idf(QStringLiteral("apple")) - 0.980829) < 1e-6);
        QVERIFY(std::abs(index.idf(QStringLiteral("cherry")) - 0.470004) < 1e-6);
        const QList<double> s = index.scores(QStringLiteral("Apple? cherry, cherry"));
        QCOMPARE(s.size(), 3);
        QVERIFY2(std::abs(s[0] - 1.348640) < 1e-6, qPrintable(QString::number(s[0], 'f', 6)));
        QVERIFY2(std::abs(s[1] - 0.544215) < 1e-6, qPrintable(QString::number(s[1], 'f', 6)));
        QVERIFY2(std::abs(s[2] - 0.689339) < 1e-6, qPrintable(QString::number(s[2], 'f', 6)));
        const QList<double> banana = index.scores(QStringLiteral("banana"));
        QVERIFY(std::abs(banana[0] - 0.470004) < 1e-6);
        QVERIFY(std::abs(banana[1] - 0.544215) < 1e-6);
        QCOMPARE(banana[2], 0.0);
        QCOMPARE(index.scores(QStringLiteral("kiwi")), (QList<double>{0.0, 0.0, 0.0}));
    }

    void recognizesContentsPages() {
        const QString toc =
            QStringLiteral("Contents\nIntroduction ........ 3\nResults . . . 5\nOutlook 9\n");
        QVERIFY(looksLikeContents(toc, 12));
        QVERIFY(!looksLikeContents(toc, 4)); // pages 5 and 9 do not exist: not a contents page
        QVERIFY(!looksLikeContents(QStringLiteral("Revenue rose in 2025.\nWe sold 7\n"), 12));
    }

    // Pinned pages first, then cited, then the best match (its neighbours score nothing here),
    // then the contents page, then BM25, then page order.
    void ranksPinnedCitedContentsThenBm25() {
        QStringList pages;
        for (int p = 1; p <= 12; ++p)
            pages << QStringLiteral("plain text about nothing in particular, page %1").arg(p);
        pages[1] = QStringLiteral("Contents\nIntroduction .... 3\nResults .... 5\nOutlook .... 9");
        pages[4] = QStringLiteral("zygote zygote counts rose");
        pages[8] = QStringLiteral("one zygote among many other words on a much longer page here");
        RankingInput in;
        in.pageTexts = {pages};
        in.pinnedPages = {{11}};
        in.citedPages = {{7}};
        in.question = QStringLiteral("How many zygote counts?");
        QList<int> order;
        for (const PageRef& r : rankPages(in)) {
            QCOMPARE(r.document, 0);
            order << r.page;
        }
        QCOMPARE(order, (QList<int>{11, 7, 5, 2, 9, 1, 3, 4, 6, 8, 10, 12}));
    }

    // Issue #48 §12: a 4,096-token model was sent the title page, the contents page and one
    // page of a four-page topic. With room for four pages the topic goes in whole; with room
    // for one more the contents page joins it; the note says why each page went in.
    void aTightBudgetHoldsTheWholeTopic() {
        PageSource doc;
        doc.title = QStringLiteral("Manual");
        doc.fingerprint = QStringLiteral("manual");
        for (int p = 1; p <= 200; ++p)
            doc.pageTexts
                << QStringLiteral("Shipping and ports, routine notes for page %1.").arg(p);
        doc.pageTexts[0] = QStringLiteral("The Northern Manual\nEdition 3");
        doc.pageTexts[1] = QStringLiteral("Contents\nIntroduction .... 3\nShipping .... 20\n"
                                          "Walrus census .... 146\nIndex .... 190");
        doc.pageTexts[145] = QStringLiteral("Walrus census: how the walrus count is made.");
        doc.pageTexts[146] = QStringLiteral("Walrus census, continued: walrus counts by region.");
        doc.pageTexts[147] = QStringLiteral("Walrus census: the walrus count fell in the north.");
        doc.pageTexts[148] = QStringLiteral("Walrus census summary and the census totals.");
        doc.pageTexts[160] = QStringLiteral("A walrus was seen near the port."); // a stray hit
        const QString question = QStringLiteral("How is the walrus census made?");

        RankingInput in;
        in.pageTexts = {doc.pageTexts};
        in.question = question;
        const QList<PageRef> ranked = rankPages(in);
        QList<int> top;
        for (int i = 0; i < 6; ++i)
            top << ranked[i].page;
        QCOMPARE(top.mid(0, 4), (QList<int>{146, 147, 148, 149}));
        QCOMPARE(ranked[0].reason, PageReason::BestMatch);
        QCOMPARE(ranked[4].page, 2);
        QCOMPARE(ranked[4].reason, PageReason::Contents);

        const TokenCounter counter = charCounter(QStringLiteral("chars"));
        PageTokenCache cache;
        const QList<qint64> cost = cache.pageTokens(doc, counter);
        const qint64 fixed = citationRule().size() + documentLabel(1, doc.title).size() +
                             partialDocumentNote().size();
        const qint64 topic = cost[145] + cost[146] + cost[147] + cost[148];
        // The smallest page left is the title page: one token short of it.
        const qint64 shortOf = cost[0] - 1;
        PageSelection four =
            selectPages({doc}, question, {}, fixed + topic + shortOf, counter, cache);
        QCOMPARE(four.documents[0].pages, (QList<int>{146, 147, 148, 149}));
        QCOMPARE(four.documents[0].explained(),
                 QStringLiteral("pages 146–149 (best match) of 200"));
        PageSelection five =
            selectPages({doc}, question, {}, fixed + topic + cost[1] + shortOf, counter, cache);
        QCOMPARE(five.documents[0].pages, (QList<int>{2, 146, 147, 148, 149}));
        QCOMPARE(five.documents[0].explained(),
                 QStringLiteral("pages 146–149 (best match), 2 (contents) of 200"));
        // Everything fits: no reasons, the plain line.
        PageSelection all = selectPages({doc}, question, {}, 1 << 30, counter, cache);
        QVERIFY(all.complete());
        QCOMPARE(all.documents[0].explained(), QStringLiteral("pages 1–200 of 200"));
    }

    // With a counter of one token per character the budget is easy to reason about.
    void selectsPagesInRankOrderAndWritesThemInPageOrder() {
        PageSource doc;
        doc.title = QStringLiteral("Report");
        doc.fingerprint = QStringLiteral("abc");
        for (int p = 1; p <= 6; ++p)
            doc.pageTexts << QString(40, QChar(u'a' + p)); // "[page K]\n" + 40 + "\n" = 50
        doc.pageTexts[3] = QStringLiteral("The walrus count was 12.") + QString(16, u'x'); // 40
        doc.pinnedPages = {6};
        const TokenCounter counter = charCounter(QStringLiteral("chars"));
        PageTokenCache cache;
        QCOMPARE(cache.pageTokens(doc, counter), (QList<qint64>{50, 50, 50, 50, 50, 50}));
        QCOMPARE(cache.pagesCounted(), 6);
        cache.pageTokens(doc, counter); // cached: not counted again
        QCOMPARE(cache.pagesCounted(), 6);
        cache.pageTokens(doc, charCounter(QStringLiteral("other"))); // another tokenizer
        QCOMPARE(cache.pagesCounted(), 12);
        QCOMPARE(cache.entries(), 2);

        // Everything fits: all pages, exactly the whole-document text.
        // The citation rule and "[document 1: Report]\n" (21 characters).
        QCOMPARE(documentLabel(1, doc.title).size(), 21);
        const qint64 label = citationRule().size() + 21;
        PageSelection all =
            selectPages({doc}, QStringLiteral("walrus?"), {{2}}, label + 300, counter, cache);
        QVERIFY(all.complete());
        QCOMPARE(all.tokens, label + 300);
        QCOMPARE(buildSystemPrompt(QStringLiteral("S"), all.sources),
                 buildSystemPrompt(QStringLiteral("S"), {{doc.title, doc.pageTexts}}));

        // Room for three pages besides the label and the partial note: pinned 6, cited 2, then
        // the walrus page 4; written in page order with their real numbers.
        const qint64 note = partialDocumentNote().size();
        PageSelection some = selectPages({doc}, QStringLiteral("walrus?"), {{2}},
                                         label + note + 3 * 50 + 49, counter, cache);
        QCOMPARE(some.documents.size(), 1);
        QCOMPARE(some.documents[0].pages, (QList<int>{2, 4, 6}));
        QCOMPARE(some.documents[0].formatted(), QStringLiteral("pages 2, 4, 6 of 6"));
        QCOMPARE(some.tokens, label + note + 150);
        const QString system = buildSystemPrompt(QStringLiteral("S"), some.sources);
        QCOMPARE(system, QStringLiteral("S\n\n") + citationRule() +
                             QStringLiteral("[document 1: Report]\n") + partialDocumentNote() +
                             QStringLiteral("[page 2]\n") + doc.pageTexts[1] +
                             QStringLiteral("\n[page 4]\n") + doc.pageTexts[3] +
                             QStringLiteral("\n[page 6]\n") + doc.pageTexts[5] +
                             QStringLiteral("\n"));
        QCOMPARE(qint64(system.size()), 3 + some.tokens); // "S\n\n" + what was counted
    }

    // Two documents: labelled by number after the citation rule; the text with the first one
    // alone is a prefix of the text with both (its cache is reused when one is added), and a
    // document keeps its number in the chat when one before it is not in the prompt.
    void labelsSeveralDocuments() {
        const SourceDocument a{QStringLiteral("A"), {QStringLiteral("a1")}};
        const SourceDocument b{QStringLiteral("B"), {QStringLiteral("b1"), QStringLiteral("b2")}};
        const QString system = buildSystemPrompt(QStringLiteral("S"), {a, b});
        QCOMPARE(system, QStringLiteral("S\n\n") + citationRule() +
                             QStringLiteral("[document 1: A]\n[page 1]\na1\n"
                                            "[document 2: B]\n[page 1]\nb1\n[page 2]\nb2\n"));
        QVERIFY(citationRule().contains(QStringLiteral("[doc N, p. K]")));
        QVERIFY(system.startsWith(buildSystemPrompt(QStringLiteral("S"), {a})));
        SourceDocument third = b;
        third.number = 3;
        QCOMPARE(buildSystemPrompt(QStringLiteral("S"), {a, third}),
                 QStringLiteral("S\n\n") + citationRule() +
                     QStringLiteral("[document 1: A]\n[page 1]\na1\n"
                                    "[document 3: B]\n[page 1]\nb1\n[page 2]\nb2\n"));
    }

    void loadsTheDemoModel() {
        QVERIFY2(QFile::exists(demoModel()), "no demo model (built with the tests)");
        worker_ = new EngineWorker;
        QSignalSpy counted(worker_, &EngineWorker::counterChanged);
        QSignalSpy loaded(worker_, &EngineWorker::modelLoaded);
        LoadOptions o;
        o.model = demoModel();
        o.context = 4096;
        worker_->loadModel(o);
        // counterChanged and modelLoaded are queued from the engine thread one after the other;
        // wait for both before reading either.
        QTRY_VERIFY_WITH_TIMEOUT(!counted.isEmpty() && !loaded.isEmpty(), 60000);
        exact_ = counted.first().first().value<TokenCounter>();
        context_ = loaded.first().first().value<ModelFactsQ>().contextLimit;
        QCOMPARE(context_, 4096);
        QVERIFY(exact_.exact());
        QVERIFY(!exact_.tokenizerId().isEmpty());
    }

    // A 300-page report (about 40,000 tokens) and a 4,096-token context.
    void aReportFarLargerThanTheContextGetsItsBestPages() {
        QVERIFY(exact_.exact());
        Document report;
        report.title = QStringLiteral("Synthetic annual report");
        report.path = QStringLiteral("/reports/synthetic.pdf");
        report.fingerprint = QStringLiteral("synthetic-300");
        report.state = Document::State::Ready;
        for (int p = 1; p <= 300; ++p)
            report.pageTexts << syntheticPage(p);
        report.pageTexts[216] += QStringLiteral("The xylophonist quartet recorded 4,812 units.\n");
        report.pageCount = 300;
        PageTokenCache cache;
        const QList<qint64> perPage =
            cache.pageTokens({report.title, report.pageTexts, {}, report.fingerprint}, exact_);
        qint64 whole = 0;
        for (qint64 n : perPage)
            whole += n;
        QVERIFY2(whole > 10 * context_, qPrintable(QString::number(whole)));

        ChatSession chat = ChatSession::create();
        chat.settings.maxTokens = 256;
        ChatMessage earlier;
        earlier.role = ChatMessage::Role::User;
        earlier.text = QStringLiteral("What is on the cover?");
        ChatMessage answer;
        answer.role = ChatMessage::Role::Assistant;
        answer.text = QStringLiteral("The cover shows the title [p. 1] and the index [p. 298].");
        chat.messages = {earlier, answer};
        PromptInput in;
        in.chat = chat;
        in.question = QStringLiteral("What did the xylophonist quartet record?");
        in.documents = {report};
        in.contextLimit = context_;
        in.pinnedPages.insert(report.path, {3, 150});
        const PromptPlan plan = planPrompt(in, exact_, cache);
        QVERIFY2(plan.error.isEmpty(), qPrintable(plan.error));
        QVERIFY(plan.exact);
        // The promise: the prompt, counted again by the engine, and the answer fit.
        const qint64 counted = exact_.prompt(plan.turns);
        QCOMPARE(counted, plan.promptTokens);
        QVERIFY2(counted + chat.settings.maxTokens <= context_,
                 qPrintable(QStringLiteral("%1 + %2").arg(counted).arg(chat.settings.maxTokens)));
        QVERIFY2(counted > context_ / 2, qPrintable(QString::number(counted))); // room is used
        QCOMPARE(plan.pages.size(), 1);
        const QList<int> pages = plan.pages[0].pages;
        QVERIFY2(pages.contains(217), qPrintable(plan.contextNote));
        QVERIFY(pages.contains(3) && pages.contains(150)); // pinned
        QVERIFY(pages.contains(1) && pages.contains(298)); // cited earlier
        QVERIFY(pages.size() > 5 && pages.size() < 60);
        QVERIFY(std::is_sorted(pages.cbegin(), pages.cend()));
        // Each group says why: pinned, cited in the chat, the xylophonist page.
        QVERIFY2(plan.contextNote.startsWith(QStringLiteral("pages 3, 150 (pinned), 1, 298 (cited "
                                                            "before), 217 (best match)")),
                 qPrintable(plan.contextNote));
        QVERIFY(plan.contextNote.endsWith(QStringLiteral(" of 300")));
        // The pages keep their numbers; the others are not in the prompt at all.
        const QString& system = plan.turns.first().content;
        QVERIFY(system.contains(QStringLiteral("[page 217]\n") + report.pageTexts[216].trimmed()));
        for (int p = 1; p <= 300; ++p)
            QCOMPARE(system.contains(QStringLiteral("[page %1]\n").arg(p)), pages.contains(p));
        QCOMPARE(plan.turns.last().content, in.question);
        QCOMPARE(plan.droppedTurns, 0); // the short conversation stays

        // The page counts are kept: another question counts no page again.
        const qint64 countedPages = cache.pagesCounted();
        in.question = QStringLiteral("Which region had the highest demand?");
        const PromptPlan second = planPrompt(in, exact_, cache);
        QVERIFY(second.error.isEmpty());
        QCOMPARE(cache.pagesCounted(), countedPages);
        QVERIFY(second.promptTokens + chat.settings.maxTokens <= context_);

        // And the engine runs it: the prompt it reads is exactly the planned count.
        QSignalSpy finished(worker_, &EngineWorker::finished);
        GenerationSettings run = chat.settings;
        run.maxTokens = 8;
        worker_->submit(1, plan.turns, run, {});
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        const RequestStatsQ st = finished.first().at(1).value<RequestStatsQ>();
        QVERIFY2(st.stopReason != QStringLiteral("error"), qPrintable(st.stopReason));
        QCOMPARE(st.promptTokens, plan.promptTokens);
    }

    // A long conversation with the long report: turns leave after pages, and the note says so.
    void aLongConversationLeavesItsOldestTurns() {
        QVERIFY(exact_.exact());
        Document report;
        report.title = QStringLiteral("R");
        report.fingerprint = QStringLiteral("synthetic-300");
        report.state = Document::State::Ready;
        for (int p = 1; p <= 300; ++p)
            report.pageTexts << syntheticPage(p);
        ChatSession chat = ChatSession::create();
        chat.settings.maxTokens = 256;
        for (int i = 0; i < 12; ++i) {
            ChatMessage q;
            q.role = ChatMessage::Role::User;
            q.text = syntheticPage(1000 + i);
            ChatMessage a;
            a.role = ChatMessage::Role::Assistant;
            a.text = syntheticPage(2000 + i);
            chat.messages << q << a;
        }
        PageTokenCache cache;
        const PromptPlan plan = planPrompt(
            {chat, QStringLiteral("And the outlook?"), {report}, context_, {}}, exact_, cache);
        QVERIFY2(plan.error.isEmpty(), qPrintable(plan.error));
        QVERIFY(plan.promptTokens + 256 <= context_);
        QVERIFY(plan.droppedTurns > 0 && plan.droppedTurns < 24);
        QCOMPARE(plan.droppedTurns % 2, 0); // the kept conversation starts with a question
        QCOMPARE(plan.droppedMessages.size(), plan.droppedTurns);
        QCOMPARE(plan.droppedMessages.first(), 0);
        QCOMPARE(plan.turns.at(1).role, QStringLiteral("user"));
        QVERIFY2(plan.contextNote.endsWith(
                     QStringLiteral(" · %1 earlier turns left out").arg(plan.droppedTurns)),
                 qPrintable(plan.contextNote));
        QVERIFY(!plan.pages[0].pages.isEmpty());
    }

    // A document that fits goes in whole, and the system turn (the cache prefix) is the same
    // bytes for every question.
    void aDocumentThatFitsKeepsItsPrefix() {
        QVERIFY(exact_.exact());
        Document report;
        report.title = QStringLiteral("Short report");
        report.fingerprint = QStringLiteral("synthetic-4");
        report.state = Document::State::Ready;
        for (int p = 1; p <= 4; ++p)
            report.pageTexts << syntheticPage(p);
        ChatSession chat = ChatSession::create();
        PageTokenCache cache;
        const PromptPlan first = planPrompt(
            {chat, QStringLiteral("What was revenue?"), {report}, context_, {}}, exact_, cache);
        ChatMessage q, a;
        q.text = QStringLiteral("What was revenue?");
        a.role = ChatMessage::Role::Assistant;
        a.text = QStringLiteral("It rose [p. 2].");
        chat.messages = {q, a};
        const PromptPlan second = planPrompt(
            {chat, QStringLiteral("And margins?"), {report}, context_, {}}, exact_, cache);
        QVERIFY(first.error.isEmpty() && second.error.isEmpty());
        QCOMPARE(first.pages[0].pages, (QList<int>{1, 2, 3, 4}));
        QVERIFY(first.contextNote.isEmpty() && second.contextNote.isEmpty());
        QCOMPARE(second.turns.first().content.toUtf8(), first.turns.first().content.toUtf8());
        QCOMPARE(first.turns.first().content,
                 buildSystemPrompt(chat.systemPrompt, {{report.title, report.pageTexts}}));
        QCOMPARE(second.turns.size(), 4);
        QCOMPARE(first.promptTokens, exact_.prompt(first.turns));
    }

    // A question longer than the context cannot run: the plan says what to do.
    void aQuestionLargerThanTheContextIsRefusedWithAReason() {
        QVERIFY(exact_.exact());
        QString question;
        for (int p = 0; p < 60; ++p)
            question += syntheticPage(p);
        PageTokenCache cache;
        const PromptPlan plan =
            planPrompt({ChatSession::create(), question, {}, context_, {}}, exact_, cache);
        QVERIFY(plan.turns.isEmpty());
        QVERIFY2(plan.error.contains(QStringLiteral("4,096")) &&
                     plan.error.contains(QStringLiteral("Shorten the question")),
                 qPrintable(plan.error));
    }
};

QTEST_GUILESS_MAIN(TestPageSelection)
#include "test_page_selection.moc"
