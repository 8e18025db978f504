// pipeline/summary_plan: summaries of documents of any length. A counter of words stands in for
// the tokenizer (so the test can recount every prompt on its own) and a scripted `ask` stands in
// for the model: parts are consecutive page ranges that cover the document and fit the context
// with room for the answer, the combine prompts hold the part summaries headed by their ranges,
// stages repeat until one summary remains, long pages are read in pieces, failures name their
// part, and the result's "Parts" section names the ranges.
#include <QRegularExpression>
#include <QtTest>

#include "core/pipeline/summary_plan.h"

using namespace folio::ui;

namespace {

qint64 words(const QString& t) {
    static const QRegularExpression space(QStringLiteral("\\s+"));
    return t.split(space, Qt::SkipEmptyParts).size();
}

// One token per word, 4 per turn, 100 per image.
TokenCounter wordCounter() {
    return TokenCounter(
        QStringLiteral("words"), [](const QString& t) { return words(t); },
        [](const QList<ChatTurn>& turns) {
            qint64 n = 0;
            for (const ChatTurn& t : turns)
                n += words(t.content) + 4 + 100 * t.images.size();
            return n;
        });
}

QStringList pagesOf(int count, int wordsPerPage) {
    QStringList pages;
    for (int p = 1; p <= count; ++p) {
        QStringList w;
        for (int i = 0; i < wordsPerPage; ++i)
            w << QStringLiteral("w%1x%2").arg(p).arg(i);
        pages << w.join(QLatin1Char(' '));
    }
    return pages;
}

struct Script {
    QList<SummaryRequest> requests;
    int answerWords = 10;
    int failAt = -1; // 1-based request that fails
    int cancelAt = -1;
    SummaryAnswer operator()(const SummaryRequest& r) {
        requests << r;
        SummaryAnswer a;
        if (requests.size() == failAt) {
            a.status = SummaryAnswer::Status::Failed;
            a.error = QStringLiteral("the server went away");
            return a;
        }
        if (requests.size() == cancelAt) {
            a.status = SummaryAnswer::Status::Cancelled;
            return a;
        }
        QStringList w;
        for (int i = 0; i < answerWords; ++i)
            w << QStringLiteral("s%1").arg(i);
        a.text = QStringLiteral("- [p. %1] ").arg(r.firstPage) + w.join(QLatin1Char(' '));
        return a;
    }
};

// The ranges of "Read in ... : pages 1–6, 7–12, 13 (piece 1 of 3), ... ." as page lists.
QList<QPair<int, int>> rangesOf(const QString& markdown) {
    const qsizetype at = markdown.indexOf(QStringLiteral(": pages "));
    const qsizetype end = markdown.indexOf(QStringLiteral(".\n"), at);
    QList<QPair<int, int>> out;
    if (at < 0 || end < 0)
        return out;
    static const QRegularExpression range(QStringLiteral("^(\\d+)(?:–(\\d+))?"));
    for (QString item : markdown.mid(at + 8, end - at - 8).split(QStringLiteral(", "))) {
        const auto m = range.match(item.trimmed());
        if (m.hasMatch())
            out << qMakePair(m.captured(1).toInt(), m.captured(2).isEmpty()
                                                        ? m.captured(1).toInt()
                                                        : m.captured(2).toInt());
    }
    return out;
}

} // namespace

class TestSummaryPlan : public QObject {
    Q_OBJECT
private slots:
    void aShortDocumentIsOnePart() {
        SummaryOptions o{QStringLiteral("Memo"), pagesOf(3, 20), {}, 4096, 64};
        Script script;
        const SummaryResult r =
            summarizeDocument(o, wordCounter(), [&](const SummaryRequest& q) { return script(q); });
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(script.requests.size(), 1);
        QCOMPARE(r.stages, 1);
        QCOMPARE(r.summary, QStringLiteral("- [p. 1] s0 s1 s2 s3 s4 s5 s6 s7 s8 s9"));
        QVERIFY2(r.markdown.contains(QStringLiteral("## Parts\n\nRead in 1 part: pages 1–3.")),
                 qPrintable(r.markdown));
        const SummaryRequest& q = script.requests.first();
        QCOMPARE(q.maxTokens, 64);
        QVERIFY(
            q.turns[0].content.contains(QStringLiteral("[document: Memo]\n[page 1]\nw1x0 w1x1")));
        QVERIFY(q.turns[0].content.contains(QStringLiteral("[page 3]\nw3x0 w3x1")));
        QVERIFY(q.turns[1].content.contains(
            QStringLiteral("Summarize pages 1–3 (of 3) as short Markdown bullets")));
        QVERIFY(q.turns[1].content.contains(QStringLiteral("[p. N]")));
    }

    void aLongDocumentIsSplitAndCombinedInStages() {
        // 200 pages of 120 words (~122 tokens with the marker) in prompts of 1000 - 100 = 900
        // tokens: about 6 pages a part, ~34 parts. Answers of 60 words (~66 tokens with their
        // heading) fit ~12 to a combine prompt: 3 groups, then 1.
        SummaryOptions o{QStringLiteral("Manual"), pagesOf(200, 120), {}, 1000, 100};
        Script script;
        script.answerWords = 60;
        QList<SummaryProgress> seen;
        const SummaryResult r = summarizeDocument(
            o, wordCounter(), [&](const SummaryRequest& q) { return script(q); },
            [&](const SummaryProgress& p) { seen << p; });
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.requests, int(script.requests.size()));
        QCOMPARE(seen.size(), script.requests.size());

        int next = 1, stage1 = 0;
        for (const SummaryRequest& q : script.requests) {
            const qint64 recount = wordCounter().prompt(q.turns);
            QCOMPARE(q.promptTokens, recount);
            QVERIFY2(recount <= 900, qPrintable(QString::number(recount)));
            QCOMPARE(q.maxTokens, 100);
            if (q.stage != 1)
                continue;
            ++stage1;
            QCOMPARE(q.firstPage, next); // consecutive, in page order
            QVERIFY(q.lastPage >= q.firstPage);
            for (int p = q.firstPage; p <= q.lastPage; ++p)
                QVERIFY(q.turns[0].content.contains(QStringLiteral("[page %1]\n").arg(p)));
            QVERIFY(
                !q.turns[0].content.contains(QStringLiteral("[page %1]\n").arg(q.lastPage + 1)));
            QVERIFY(q.turns[1].content.contains(
                QStringLiteral("Summarize pages %1–%2").arg(q.firstPage).arg(q.lastPage)));
            // Nearly full: the next page (122 tokens) would not have fit.
            if (q.lastPage < 200)
                QVERIFY2(recount + 122 > 900 - 16, qPrintable(QString::number(recount)));
            next = q.lastPage + 1;
        }
        QCOMPARE(next, 201);
        // 200 pages of 122 tokens in prompts of 900 minus a frame of about 30: 7 pages a part.
        QVERIFY2(stage1 >= 25 && stage1 <= 34, qPrintable(QString::number(stage1)));
        QCOMPARE(r.parts.size(), stage1);

        // Combine stages: each holds the previous stage's summaries, headed by their ranges, in
        // groups that cover the whole document; the last is one request over pages 1–200.
        QCOMPARE(r.stages, 3);
        QList<QPair<int, int>> previous;
        for (const SummaryPart& p : r.parts)
            previous << qMakePair(p.firstPage, p.lastPage);
        for (int stage = 2; stage <= r.stages; ++stage) {
            QList<QPair<int, int>> outputs;
            int covered = 0;
            for (const SummaryRequest& q : script.requests) {
                if (q.stage != stage)
                    continue;
                outputs << qMakePair(q.firstPage, q.lastPage);
                for (const auto& range : previous) {
                    if (range.first < q.firstPage || range.second > q.lastPage)
                        continue;
                    ++covered;
                    const QString heading = range.first == range.second
                                                ? QStringLiteral("### Page %1\n").arg(range.first)
                                                : QStringLiteral("### Pages %1–%2\n")
                                                      .arg(range.first)
                                                      .arg(range.second);
                    QVERIFY2(q.turns[1].content.contains(heading), qPrintable(heading));
                }
            }
            QCOMPARE(covered, previous.size());
            previous = outputs;
        }
        QCOMPARE(previous.size(), 1);
        QCOMPARE(previous.first(), qMakePair(1, 200));
        QCOMPARE(script.requests.last().stage, 3);

        // The result names the parts' ranges, which cover every page once, in order.
        const QList<QPair<int, int>> named = rangesOf(r.markdown);
        QCOMPARE(named.size(), stage1);
        int page = 1;
        for (const auto& range : named) {
            QCOMPARE(range.first, page);
            page = range.second + 1;
        }
        QCOMPARE(page, 201);
        QVERIFY(r.markdown.contains(QStringLiteral(", combined in 2 rounds (3 stages): pages 1–")));

        // Progress: one per request, with its stage and part; an ETA once one request is done.
        for (int i = 0; i < seen.size(); ++i) {
            QCOMPARE(seen[i].stage, script.requests[i].stage);
            QCOMPARE(seen[i].part, script.requests[i].index + 1);
            QCOMPARE(seen[i].parts, script.requests[i].count);
            QCOMPARE(seen[i].firstPage, script.requests[i].firstPage);
            // The count of stages is shown only once certain: the last stage (issue #48 §9).
            QCOMPARE(seen[i].stages, seen[i].stage == 3 ? 3 : 0);
            if (i > 0)
                QVERIFY(seen[i].etaSeconds >= 0);
            QVERIFY(seen[i].workTotal >= seen[i].workDone);
        }
        QVERIFY(seen.first().etaSeconds < 0);
        QCOMPARE(seen.last().stages, 3);
    }

    void theEtaCoversEveryStageAndFollowsASlowdown() {
        // Issue #48 §9: "about 2 min left" at part 105 of 210 of stage 1, and the stage took 12
        // more minutes. 210 pages of 500 words, one to a part, answers of 90 words; the parts'
        // summaries are combined in further stages. The scripted clock charges each request
        // for its tokens (prompt + 10 per answer token): 2 ms a token for the first 90
        // requests, then 8 ms (4x slower). At part 106 the time left must be within 20% of the
        // truth (every later request, the combine stages included) once the slowdown has been
        // measured on 15 parts; the count of stages is shown only once certain.
        double now = 0;
        SummaryOptions o{QStringLiteral("Manual"), pagesOf(210, 500), {}, 1000, 100};
        o.clock = [&now] { return now; };
        Script script;
        script.answerWords = 90;
        QList<double> took;
        QList<SummaryProgress> seen;
        const SummaryResult r = summarizeDocument(
            o, wordCounter(),
            [&](const SummaryRequest& q) {
                const double perToken = took.size() < 90 ? 0.002 : 0.008;
                took << (q.promptTokens + 10.0 * script.answerWords) * perToken;
                now += took.last();
                return script(q);
            },
            [&](const SummaryProgress& p) { seen << p; });
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.parts.size(), 210);
        QVERIFY(r.stages >= 3);
        double truth = 0;
        for (qsizetype i = 105; i < took.size(); ++i)
            truth += took[i];
        const SummaryProgress& at106 = seen[105];
        QCOMPARE(at106.stage, 1);
        QCOMPARE(at106.part, 106);
        QCOMPARE(at106.stages, 0); // not certain yet: not shown
        qInfo("%d requests in %d stages; at part 106: %.0f s left, truth %.0f s (parts alone "
              "%.0f s)",
              int(took.size()), r.stages, at106.etaSeconds, truth, 105 * took[100]);
        QVERIFY2(qAbs(at106.etaSeconds - truth) <= 0.20 * truth,
                 qPrintable(QString::number(at106.etaSeconds)));
        // At the last part of stage 1 the combine stages are still ahead.
        double combines = 0;
        for (qsizetype i = 209; i < took.size(); ++i)
            combines += took[i];
        QVERIFY2(seen[209].etaSeconds >= 0.7 * combines,
                 qPrintable(QStringLiteral("%1 of %2").arg(seen[209].etaSeconds).arg(combines)));
        QVERIFY(seen[209].workTotal > seen[209].workDone);
        // The count of stages, once shown, never changes, and equals the result's.
        int shown = 0;
        for (const SummaryProgress& p : seen) {
            if (shown > 0)
                QCOMPARE(p.stages, shown);
            shown = p.stages;
        }
        QCOMPARE(shown, r.stages);
        QVERIFY(r.markdown.contains(QStringLiteral("(%1 stages)").arg(r.stages)));
        QVERIFY(
            formatSummaryProgress(at106).startsWith(QStringLiteral("stage 1 · part 106 of 210")));
    }

    void aPageLongerThanThePromptIsReadInPieces() {
        SummaryOptions o{QStringLiteral("Log"), pagesOf(5, 30), {}, 1000, 100};
        o.pageTexts[2] = pagesOf(3, 2500)[2]; // page 3: 2,500 words
        o.pageTexts[4].clear();               // page 5: scanned
        Script script;
        const SummaryResult r =
            summarizeDocument(o, wordCounter(), [&](const SummaryRequest& q) { return script(q); });
        QVERIFY2(r.ok, qPrintable(r.error));
        QStringList pieceWords;
        int pieces = 0;
        for (const SummaryRequest& q : script.requests) {
            QVERIFY(wordCounter().prompt(q.turns) <= 900);
            if (q.stage != 1 || q.pieces == 0)
                continue;
            ++pieces;
            QCOMPARE(q.firstPage, 3);
            QCOMPARE(q.piece, pieces);
            const QString& system = q.turns[0].content;
            const QString label =
                QStringLiteral("[page 3, piece %1 of %2]\n").arg(q.piece).arg(q.pieces);
            QVERIFY2(system.contains(label), qPrintable(system.left(400)));
            pieceWords << system.mid(system.indexOf(label) + label.size()).trimmed();
            QVERIFY(q.turns[1].content.contains(
                QStringLiteral("Summarize page 3 (piece %1 of %2)").arg(q.piece).arg(q.pieces)));
        }
        QVERIFY2(pieces >= 3, qPrintable(QString::number(pieces)));  // 2,500 words, ~850 a piece
        QCOMPARE(pieceWords.join(QLatin1Char(' ')), o.pageTexts[2]); // nothing lost or doubled
        QVERIFY(r.notes.join(QLatin1Char('\n'))
                    .contains(QStringLiteral(
                                  "Page 3 is longer than one prompt: it was read in %1 pieces.")
                                  .arg(pieces)));
        QVERIFY2(r.markdown.contains(QStringLiteral("pages 1–2, 3 (piece 1 of %1)").arg(pieces)),
                 qPrintable(r.markdown));
        bool scannedSeen = false;
        for (const SummaryRequest& q : script.requests)
            scannedSeen |= q.turns[0].content.contains(
                QStringLiteral("[page 5]\n(a scanned page: no text layer)"));
        QVERIFY(scannedSeen);
        const QList<QPair<int, int>> named = rangesOf(r.markdown);
        QCOMPARE(named.first().first, 1);
        QCOMPARE(named.last().second, 5);
    }

    void imagesGoWithTheFirstPart() {
        SummaryOptions o{
            QStringLiteral("Deck"), pagesOf(30, 100), {QStringLiteral("chart.png")}, 1000, 100};
        Script script;
        const SummaryResult r =
            summarizeDocument(o, wordCounter(), [&](const SummaryRequest& q) { return script(q); });
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(script.requests[0].turns[1].images, QStringList{QStringLiteral("chart.png")});
        for (int i = 1; i < script.requests.size(); ++i)
            QVERIFY(script.requests[i].turns[1].images.isEmpty());
        QVERIFY(script.requests[0].promptTokens <= 900); // the image's 100 tokens included
    }

    // Scanned pages read by the vision model (issue #23): the page goes in as an image at its
    // place in its part, the image's rows counted; an image too big for any prompt goes as the
    // page's (empty) text and the notes say so.
    void scannedPagesGoInAsImagesAtTheirPlace() {
        QStringList pages = pagesOf(12, 100);
        pages[6] = QString(); // page 7: no text layer
        SummaryOptions o{QStringLiteral("Report"), pages, {}, 1000, 100};
        o.pageImages.insert(7, PageImage{QStringLiteral("/pages/p7.png"), 150});
        QString error;
        QStringList notes;
        const QList<SummaryRequest> parts = planSummaryParts(o, wordCounter(), &error, &notes);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        int withImage = 0;
        for (const SummaryRequest& r : parts) {
            const QString system = r.turns[0].content;
            if (r.firstPage <= 7 && r.lastPage >= 7) {
                ++withImage;
                QVERIFY2(system.contains(QStringLiteral("[page 7]\n<__media__>\n")),
                         qPrintable(system.right(300)));
                QVERIFY(!system.contains(QStringLiteral("(a scanned page")));
                QCOMPARE(r.turns[0].images, QStringList{QStringLiteral("/pages/p7.png")});
                // The word counter charges 100 per image (independent of the plan's 150).
                QCOMPARE(r.promptTokens, words(system) + 4 + 100 + words(r.turns[1].content) + 4);
            } else {
                QVERIFY(r.turns[0].images.isEmpty());
            }
            QVERIFY(r.promptTokens <= 900);
        }
        QCOMPARE(withImage, 1);
        QVERIFY(notes.isEmpty());

        o.pageImages[7].tokens = 5000; // larger than any prompt
        const QList<SummaryRequest> textOnly = planSummaryParts(o, wordCounter(), &error, &notes);
        QVERIFY(error.isEmpty());
        for (const SummaryRequest& r : textOnly)
            QVERIFY(r.turns[0].images.isEmpty());
        QCOMPARE(notes,
                 QStringList{QStringLiteral(
                     "Scanned page 7 went in without its image: it does not fit one prompt.")});
    }

    void aFailedRequestNamesItsPart() {
        SummaryOptions o{QStringLiteral("Manual"), pagesOf(60, 120), {}, 1000, 100};
        Script script;
        script.failAt = 3;
        const SummaryResult r =
            summarizeDocument(o, wordCounter(), [&](const SummaryRequest& q) { return script(q); });
        QVERIFY(!r.ok);
        QVERIFY(!r.cancelled);
        QCOMPARE(script.requests.size(), 3);
        const SummaryRequest& q = script.requests[2];
        QCOMPARE(r.error, QStringLiteral("Stage 1, part 3 of %1 (pages %2–%3) failed: the server "
                                         "went away")
                              .arg(q.count)
                              .arg(q.firstPage)
                              .arg(q.lastPage));
        QCOMPARE(r.parts.size(), 2); // what was done is kept
    }

    void cancellingStops() {
        SummaryOptions o{QStringLiteral("Manual"), pagesOf(60, 120), {}, 1000, 100};
        Script script;
        script.cancelAt = 2;
        const SummaryResult r =
            summarizeDocument(o, wordCounter(), [&](const SummaryRequest& q) { return script(q); });
        QVERIFY(!r.ok);
        QVERIFY(r.cancelled);
        QCOMPARE(script.requests.size(), 2);
        QVERIFY(r.error.contains(QStringLiteral("cancelled")));
    }

    void aContextTooSmallForTheFrameIsExplained() {
        SummaryOptions o{QStringLiteral("Manual"), pagesOf(5, 10), {}, 80, 16};
        Script script;
        const SummaryResult r =
            summarizeDocument(o, wordCounter(), [&](const SummaryRequest& q) { return script(q); });
        QVERIFY(!r.ok);
        QVERIFY(script.requests.isEmpty());
        QVERIFY2(r.error.startsWith(
                     QStringLiteral("The context (80 tokens) is too small for a summary")),
                 qPrintable(r.error));
        const SummaryResult empty =
            summarizeDocument(SummaryOptions{QStringLiteral("x"), {}, {}, 4096, 16}, wordCounter(),
                              [&](const SummaryRequest& q) { return script(q); });
        QCOMPARE(empty.error, QStringLiteral("The document has no pages to summarize."));
    }

    void answerReserveIsAtMostHalfTheContext() {
        SummaryOptions o{QStringLiteral("Manual"), pagesOf(20, 100), {}, 1000, 4000};
        QString error;
        const QList<SummaryRequest> plan = planSummaryParts(o, wordCounter(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (const SummaryRequest& q : plan) {
            QCOMPARE(q.maxTokens, 500);
            QVERIFY(q.promptTokens <= 500);
        }
    }

    void progressReadsWell() {
        QCOMPARE(formatSummaryProgress({1, 2, 3, 12, 77, 115, 0, 0, 120}),
                 QStringLiteral("stage 1/2 · part 3 of 12 · pages 77–115 · about 2 min left"));
        QCOMPARE(formatSummaryProgress({2, 3, 1, 4, 1, 150, 0, 0, 30.4}),
                 QStringLiteral("stage 2/3 · part 1 of 4 · pages 1–150 · about 30 s left"));
        QCOMPARE(formatSummaryProgress({1, 1, 5, 9, 45, 45, 2, 3, -1}),
                 QStringLiteral("stage 1/1 · part 5 of 9 · page 45 (piece 2 of 3) · estimating the "
                                "time left"));
        QCOMPARE(formatSummaryProgress({1, 2, 1, 2, 7, 7, 0, 0, 7800}),
                 QStringLiteral("stage 1/2 · part 1 of 2 · page 7 · about 2 h 10 min left"));
        QCOMPARE(formatSummaryProgress({1, 0, 105, 210, 105, 105, 0, 0, 900}),
                 QStringLiteral("stage 1 · part 105 of 210 · page 105 · about 15 min left"));
    }
};

QTEST_MAIN(TestSummaryPlan)
#include "test_summary_plan.moc"
