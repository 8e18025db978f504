// Making a report section by section (issue #49 §2–4) with a scripted backend on the generated
// sample report (tools/sample): the built-in equity note's six asked sections answered with
// planted figures whose states were written by hand from the report's pages (see
// tests/core/figures/test_check_figures_cli.cpp for what each page says), the report saved after
// every section, a crash (the file as saved after section 3) resumed at section 4, a failure
// made again, an edited section kept, one section made again, a cancel, a full disk, and the
// export in Markdown, HTML, PDF (read back with QtPdf) and ODT (its content.xml unzipped).
#include <QFile>
#include <QPdfDocument>
#include <QProcess>
#include <QtTest>

#include "core/documents/document_loader.h"
#include "core/report/builtin_templates.h"
#include "core/report/report_export.h"
#include "core/report/report_generator.h"
#include "core/report/report_json.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

// Each section's scripted answer; the comment gives what the sample report says.
QString answerFor(const QString& heading) {
    if (heading == QLatin1String("Investment summary"))
        return "Northwind's revenue rose 7.4% to $4.5 billion in 2025 [p. 2]. " // ✓ ✓ (p. 2)
               "Free cash flow was $640 million [p. 2].";                       // ✗ ($603m)
    if (heading == QLatin1String("Business and segments"))
        return "- Asia's share of revenue rose to 34% [p. 6].\n" // ✓ (31% → 34%)
               "- Northwind employs 11,400 people.";             // ? no citation
    if (heading == QLatin1String("Financial performance"))
        return "| Metric | 2025 | 2024 | Change | Source |\n"
               "| --- | --- | --- | --- | --- |\n"
               "| Net income | $512 million [p. 3] | $457 million [p. 3] | | |\n" // ✓ ✓ ($ m)
               "| Diluted EPS | $3.41 [p. 3] | $3.04 [p. 3] | | |\n";             // ✓ ✓
    if (heading == QLatin1String("What the charts show"))
        return "- The fourth quarter was the strongest at $1,186 million [p. 4]."; // ✓
    if (heading == QLatin1String("Risks"))
        return "- The order book stood at $2.31 billion [p. 4]."; // ⚠ on p. 5 (23.1亿美元)
    if (heading == QLatin1String("Outlook"))
        return "Synergies of $18 million are targeted by 2027 [p. 7]."; // ✓
    return QString();
}

QString sampleReport() {
    return folio::test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
}

struct Scripted {
    QStringList asked; // headings, in order
    QList<SectionRequest> requests;
    QString failHeading;   // answered with a failure
    QString cancelHeading; // answered as cancelled
    SectionAnswer operator()(const SectionRequest& r) {
        asked << r.heading;
        requests << r;
        SectionAnswer a;
        if (r.heading == failHeading) {
            a.status = SectionAnswer::Status::Failed;
            a.error = QStringLiteral("the server closed the connection");
        } else if (r.heading == cancelHeading) {
            a.status = SectionAnswer::Status::Cancelled;
        } else {
            a.text = answerFor(r.heading);
        }
        return a;
    }
};

} // namespace

class TestReportGenerator : public QObject {
    Q_OBJECT
    Document sample_;
    ReportTemplate note_;
    QString noteText_;

    Report freshReport() const {
        Report r = newReport(note_, noteText_, QStringLiteral("equity-note"));
        r.documents << ReportDocument{sample_.path, sample_.title, sample_.fingerprint,
                                      sample_.pageCount};
        r.model = QStringLiteral("scripted");
        return r;
    }

    ReportInputs inputs(qint64 context = 4096) const {
        ReportInputs in;
        PageSource source;
        source.title = sample_.title;
        source.pageTexts = sample_.pageTexts;
        source.number = 1;
        in.documents << source;
        in.contextTokens = context;
        in.answerTokens = 512;
        return in;
    }

    static QStringList headings(const Report& r) {
        QStringList out;
        for (const ReportSectionTemplate& s : r.shape.sections)
            out << s.heading;
        return out;
    }

private slots:
    void initTestCase() {
        if (!QFile::exists(sampleReport())) {
            if (folio::test::isCi())
                QFAIL("the sample report is missing and CI=true (target folio_samples)");
            QSKIP("the sample report is missing: build the folio_samples target");
        }
        sample_ = loadDocument(sampleReport());
        QCOMPARE(sample_.state, Document::State::Ready);
        QCOMPARE(sample_.pageCount, 8); // page 8 is a scanned page
        const TemplateParse parse = findReportTemplate(QStringLiteral("equity-note"), "en");
        QVERIFY2(parse.ok(), qPrintable(parse.error));
        note_ = parse.value;
        QFile file(parse.value.source);
        QVERIFY(file.open(QIODevice::ReadOnly));
        noteText_ = QString::fromUtf8(file.readAll());
    }

    void everySectionIsMadeCheckedAndSaved() {
        Report report = freshReport();
        PageTokenCache cache;
        Scripted ask;
        int saves = 0;
        QList<int> doneAtSave;
        auto save = [&](const Report& r) {
            ++saves;
            doneAtSave << r.sections.size() - r.sectionsLeft();
            return QString();
        };
        QList<ReportProgress> steps;
        const ReportRunResult result =
            generateReport(report, inputs(), TokenCounter(), cache, std::ref(ask), save,
                           [&](const ReportProgress& p) { steps << p; });
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.made, 6);
        // The six asked sections in order; "Sources" is Folio's own.
        QCOMPARE(ask.asked, headings(report).mid(0, 6));
        QCOMPARE(steps.size(), 6);
        QCOMPARE(steps[2].section, 2);
        QCOMPARE(steps[2].steps, 6);
        QCOMPARE(steps[2].heading, QStringLiteral("Financial performance"));
        // Saved after every section, each time with one more section made (the sources
        // section counts as made from the first save on).
        QCOMPARE(saves, 6);
        QCOMPARE(doneAtSave, (QList<int>{2, 3, 4, 5, 6, 7}));
        QVERIFY(report.finished());

        // The table's request names its columns and rows; every request holds the pages.
        const QString tableAsk = ask.requests[2].turns[1].content;
        QVERIFY2(tableAsk.contains("| Metric | Latest year | Previous year | Change | Source |"),
                 qPrintable(tableAsk));
        QVERIFY(tableAsk.contains("Revenue; Gross margin; Operating profit; Net profit; "
                                  "Operating cash flow"));
        QVERIFY(ask.requests[0].turns[0].content.contains("[page 2]"));
        // The sample's 8 pages fit 4,096 tokens: every section read all of them.
        QCOMPARE(report.sections[0].pagesUsed.size(), 1);
        QCOMPARE(report.sections[0].pagesUsed[0].pages, (QList<int>{1, 2, 3, 4, 5, 6, 7, 8}));

        // The figures of each section, as the pages say (hand-written above).
        auto tally = [&](int i) { return tallyFigures(report.sections[i].figures); };
        QCOMPARE(tally(0).verified, 2);
        QCOMPARE(tally(0).notFound, 1);
        QCOMPARE(tally(1).verified, 1);
        QCOMPARE(tally(1).uncited, 1);
        QCOMPARE(tally(2).verified, 4);
        QCOMPARE(tally(2).total(), 4);
        QCOMPARE(tally(3).verified, 1);
        QCOMPARE(tally(4).otherPage, 1);
        QCOMPARE(report.sections[4].figures[0].foundPage, 5);
        QCOMPARE(tally(5).verified, 1);
        QVERIFY(sectionHasFiguresNotFound(report.sections[0]));
        QVERIFY(!sectionHasFiguresNotFound(report.sections[2]));

        // Folio's sources section names the document and the pages used.
        const QString sources = report.sections[6].text;
        QCOMPARE(report.sections[6].state, ReportSection::State::Done);
        QVERIFY2(sources.contains("sample-report.pdf") && sources.contains("pages 1–8 of 8"),
                 qPrintable(sources));
    }

    void aCrashResumesAtTheNextSection() {
        const QString dir = folio::test::scratchDir("report-crash");
        const QString path = dir + "/note.folio-report";
        const QString afterThree = dir + "/after-three.folio-report";
        Report report = freshReport();
        PageTokenCache cache;
        Scripted ask;
        auto save = [&](const Report& r) {
            const QString failed = saveReport(path, r);
            if (r.sectionsLeft() == 3) // the file a kill -9 during section 4 leaves
                QFile::copy(path, afterThree);
            return failed;
        };
        QVERIFY(generateReport(report, inputs(), TokenCounter(), cache, std::ref(ask), save).ok);

        Report restarted;
        QString error;
        QVERIFY2(loadReport(afterThree, restarted, &error), qPrintable(error));
        QCOMPARE(restarted.sectionsLeft(), 3);
        QCOMPARE(restarted.sections[1].text, report.sections[1].text);
        QCOMPARE(restarted.sections[0].figures, report.sections[0].figures);
        QCOMPARE(restarted.sections[0].pagesUsed[0].pages, report.sections[0].pagesUsed[0].pages);
        Scripted again;
        const ReportRunResult resumed =
            generateReport(restarted, inputs(), TokenCounter(), cache, std::ref(again),
                           [&](const Report& r) { return saveReport(path, r); });
        QVERIFY2(resumed.ok, qPrintable(resumed.error));
        QCOMPARE(again.asked, headings(restarted).mid(3, 3)); // charts, risks, outlook
        QCOMPARE(resumed.made, 3);
        for (int i = 0; i < 7; ++i)
            QCOMPARE(restarted.sections[i].text, report.sections[i].text);
    }

    void aFailedSectionIsMadeAgainAndAnEditedOneIsKept() {
        Report report = freshReport();
        PageTokenCache cache;
        Scripted ask;
        ask.failHeading = QStringLiteral("Business and segments");
        const ReportRunResult first =
            generateReport(report, inputs(), TokenCounter(), cache, std::ref(ask), {});
        QVERIFY(!first.ok);
        QCOMPARE(first.failed, (QList<int>{1}));
        QCOMPARE(first.made, 5); // the others went on
        QVERIFY(first.error.contains("Business and segments"));
        QCOMPARE(report.sections[1].state, ReportSection::State::Failed);
        QCOMPARE(report.sections[1].error, QStringLiteral("the server closed the connection"));

        // The user rewrites the summary by hand; the next run makes only the failed section.
        report.sections[0].state = ReportSection::State::Edited;
        report.sections[0].text = QStringLiteral("Our own words.");
        Scripted retry;
        QVERIFY(generateReport(report, inputs(), TokenCounter(), cache, std::ref(retry), {}).ok);
        QCOMPARE(retry.asked, QStringList{"Business and segments"});
        QCOMPARE(report.sections[0].text, QStringLiteral("Our own words."));

        // Made again on request: one section; an edited one only when asked to overwrite.
        Scripted one;
        ReportRunOptions only;
        only.only = {0, 4};
        QVERIFY(generateReport(report, inputs(), TokenCounter(), cache, std::ref(one), {}, {}, only)
                    .ok);
        QCOMPARE(one.asked, QStringList{"Risks"});
        only.overwriteEdited = true;
        Scripted overwrite;
        QVERIFY(generateReport(report, inputs(), TokenCounter(), cache, std::ref(overwrite), {}, {},
                               only)
                    .ok);
        QCOMPARE(overwrite.asked, (QStringList{"Investment summary", "Risks"}));
        QCOMPARE(report.sections[0].state, ReportSection::State::Done);
    }

    void cancelKeepsWhatIsDoneAndAFullDiskStops() {
        Report report = freshReport();
        PageTokenCache cache;
        Scripted ask;
        ask.cancelHeading = QStringLiteral("Financial performance");
        int saves = 0;
        const ReportRunResult cancelled = generateReport(report, inputs(), TokenCounter(), cache,
                                                         std::ref(ask), [&](const Report&) {
                                                             ++saves;
                                                             return QString();
                                                         });
        QVERIFY(cancelled.cancelled);
        QCOMPARE(ask.asked.size(), 3);
        QCOMPARE(report.sections[1].state, ReportSection::State::Done);
        QCOMPARE(report.sections[2].state, ReportSection::State::Pending);
        QCOMPARE(saves, 3); // after sections 1, 2 and at the cancel

        Report full = freshReport();
        Scripted diskFull;
        const ReportRunResult stopped = generateReport(
            full, inputs(), TokenCounter(), cache, std::ref(diskFull),
            [](const Report&) { return QStringLiteral("note.folio-report: the disk is full"); });
        QVERIFY(!stopped.ok);
        QCOMPARE(diskFull.asked.size(), 1); // nothing more is made that could not be kept
        QCOMPARE(stopped.error, QStringLiteral("note.folio-report: the disk is full"));
    }

    void aPromptTheBackendCountsLongerIsPlannedAgain() {
        // A server whose tokenizer makes 3 tokens of our estimate's one: the first prompts
        // do not fit its 4,096 tokens; each such section is planned again with fewer pages.
        Report report = freshReport();
        PageTokenCache cache;
        Scripted script;
        int refused = 0;
        QList<qint64> accepted;
        auto ask = [&](const SectionRequest& r) {
            const qint64 theirs = r.promptTokens * 3;
            if (theirs + r.maxTokens > 4096) {
                ++refused;
                SectionAnswer a;
                a.status = SectionAnswer::Status::Failed;
                a.error = QStringLiteral("invalid argument: HTTP 400 from http://127.0.0.1/v1/chat/"
                                         "completions: invalid argument: the prompt has %1 tokens; "
                                         "the context holds 4096")
                              .arg(theirs + r.maxTokens);
                return a;
            }
            accepted << theirs;
            return script(r);
        };
        const ReportRunResult result =
            generateReport(report, inputs(), TokenCounter(), cache, ask, {});
        QVERIFY2(result.ok, qPrintable(result.error));
        QVERIFY(refused >= 6); // every section's first plan was too long for it
        QCOMPARE(accepted.size(), 6);
        for (qint64 tokens : accepted)
            QVERIFY(tokens + 512 <= 4096);
        // Fewer pages went in, and the section says which.
        QVERIFY(report.sections[0].pagesUsed[0].pages.size() < 8);
        QVERIFY(!report.sections[0].pagesUsed[0].pages.isEmpty());
    }

    void tooLongMessagesOfTheBackendsAreRead_data() {
        QTest::addColumn<QString>("error");
        QTest::addColumn<bool>("tooLong");
        QTest::addColumn<qint64>("tokens");
        QTest::newRow("folio") << "invalid argument: the prompt has 4410 tokens; the context "
                                  "holds 4096"
                               << true << qint64(4410);
        QTest::newRow("vllm") << "HTTP 400: This model's maximum context length is 8192 tokens. "
                                 "However, you requested 9000 tokens (8488 in the messages, 512 "
                                 "in the completion). Please reduce the length."
                              << true << qint64(8488);
        QTest::newRow("vllm short") << "This model's maximum context length is 8192 tokens. "
                                       "However, you requested 9100 tokens."
                                    << true << qint64(9100);
        QTest::newRow("sglang") << "The input (9000 tokens) is longer than the model's context "
                                   "length (8192 tokens)."
                                << true << qint64(0);
        QTest::newRow("other 400") << "HTTP 400: unknown model demo" << false << qint64(0);
    }

    void tooLongMessagesOfTheBackendsAreRead() {
        QFETCH(QString, error);
        QFETCH(bool, tooLong);
        QFETCH(qint64, tokens);
        qint64 read = -1;
        QCOMPARE(promptTooLong(error, &read), tooLong);
        QCOMPARE(read, tokens);
    }

    void aSectionThatDrawsOnDataIsCheckedAgainstItsQueries() {
        // The equity note's financial table draws on data: with a data source its request says
        // so (the caller runs the SQL tool) and its figures without a page citation are checked
        // against the query results the answer returns.
        Report report = freshReport();
        report.dataSources << QStringLiteral("/data/quarters.csv");
        ReportInputs in = inputs();
        in.dataSources = report.dataSources;
        PageTokenCache cache;
        QStringList wantedData;
        auto ask = [&](const SectionRequest& r) {
            SectionAnswer a;
            if (!r.wantsData) {
                a.text = answerFor(r.heading);
                return a;
            }
            wantedData << r.heading;
            if (!r.turns[1].content.contains("sql_query")) {
                a.status = SectionAnswer::Status::Failed;
                a.error = QStringLiteral("the request does not offer the tool");
                return a;
            }
            MarkdownTable result;
            result.header = {"quarter", "revenue"};
            result.rows = {{"Q4", "1,186.0"}, {"Q3", "1,131.5"}};
            a.tables << result;
            // Plain amounts as the query returns them (the result states no unit).
            a.text = "Fourth-quarter revenue was 1,186.0 and the third quarter's 1,200.0.";
            return a;
        };
        QVERIFY(generateReport(report, in, TokenCounter(), cache, ask, {}).ok);
        QCOMPARE(wantedData, QStringList{"Financial performance"});
        const QList<CheckedFigure>& figures = report.sections[2].figures;
        QCOMPARE(figures.size(), 2);
        QCOMPARE(figures[0].state, CheckedFigure::State::Verified);
        QCOMPARE(figures[0].table, 0);
        QCOMPARE(figures[1].state, CheckedFigure::State::NotFound);
        QCOMPARE(figures[1].table, CheckedFigure::kNotInResults);
        QVERIFY(report.sections[6].text.contains("Data: quarters.csv"));
    }

    void aContextTooSmallAsksNothing() {
        Report report = freshReport();
        PageTokenCache cache;
        Scripted ask;
        const ReportRunResult r =
            generateReport(report, inputs(300), TokenCounter(), cache, std::ref(ask), {});
        QVERIFY(!r.ok);
        QVERIFY(ask.asked.isEmpty());
        QVERIFY2(r.error.contains("300 tokens"), qPrintable(r.error));
    }

    void theEtaCoversTheRestOfTheRun() {
        // Scripted clock: every request takes 10 s. After the first, five are left: ~50 s
        // (the requests are of similar size; within a factor of 1.5).
        Report report = freshReport();
        PageTokenCache cache;
        double clock = 0;
        Scripted script;
        auto ask = [&](const SectionRequest& r) {
            clock += 10;
            return script(r);
        };
        QList<double> etas;
        ReportRunOptions options;
        options.clock = [&clock] { return clock; };
        QVERIFY(generateReport(
                    report, inputs(), TokenCounter(), cache, ask, {},
                    [&](const ReportProgress& p) { etas << p.etaSeconds; }, options)
                    .ok);
        QCOMPARE(etas.size(), 6);
        QVERIFY(etas[0] < 0); // nothing measured yet
        QVERIFY2(etas[1] > 50 / 1.5 && etas[1] < 50 * 1.5, qPrintable(QString::number(etas[1])));
        QVERIFY2(etas[5] > 10 / 1.5 && etas[5] < 10 * 1.5, qPrintable(QString::number(etas[5])));
    }

    void theExportHasEverySectionNotesAndTheFigures() {
        Report report = freshReport();
        PageTokenCache cache;
        Scripted ask;
        QVERIFY(generateReport(report, inputs(), TokenCounter(), cache, std::ref(ask), {}).ok);

        const QString md = reportMarkdown(report);
        QVERIFY(md.startsWith("# Equity research note\n"));
        for (int i = 0; i < 7; ++i)
            QVERIFY2(
                md.contains(
                    QStringLiteral("## %1. %2").arg(i + 1).arg(report.shape.sections[i].heading)),
                qPrintable(md));
        // The contents flag the section with a figure not found.
        QVERIFY(md.contains("1. Investment summary — ✗ figures not found"));
        // Citations become notes naming the document and page; p. 2 is note 1.
        const QString p2 = QStringLiteral("[^1]: %1 (sample-report.pdf), p. 2").arg(sample_.title);
        QVERIFY2(md.contains(p2), qPrintable(md));
        QVERIFY2(md.contains("$4.5 billion\u202F✓ in 2025 [^1]"), qPrintable(md));
        QVERIFY(!md.contains("[p. 2]"));
        QVERIFY(md.contains("| $512 million\u202F✓"));
        QVERIFY(md.contains("## Figures checked"));
        QVERIFY(md.contains("| Financial performance | $3.41 | ✓ verified | p. 3 | p. 3 |"));

        const QString dir = folio::test::scratchDir("report-export");
        const QString pdfPath = dir + "/note.pdf";
        QCOMPARE(exportReport(pdfPath, report), QString());
        QPdfDocument pdf;
        QCOMPARE(pdf.load(pdfPath), QPdfDocument::Error::None);
        QVERIFY(pdf.pageCount() >= 2); // the title and contents, then the sections
        QString text;
        for (int i = 0; i < pdf.pageCount(); ++i)
            text += pdf.getAllText(i).text() + QLatin1Char('\n');
        QVERIFY(!pdf.getAllText(0).text().contains("Northwind's revenue")); // page 1: contents
        for (const char* want : {"Equity research note", "3. Financial performance", "Net income",
                                 "$512 million", "Figures checked", "Notes"})
            QVERIFY2(text.contains(want), qPrintable(want));
        QVERIFY2(text.contains(QStringLiteral("%1 (sample-report.pdf), p. 3").arg(sample_.title)),
                 qPrintable(text));

        const QString odtPath = dir + "/note.odt";
        QCOMPARE(exportReport(odtPath, report), QString());
        QProcess unzip;
        unzip.start("unzip", {"-p", odtPath, "content.xml"});
        QVERIFY2(unzip.waitForFinished(30000), "unzip did not run (package unzip)");
        const QString xml = QString::fromUtf8(unzip.readAllStandardOutput());
        QVERIFY2(xml.contains("Financial performance"), qPrintable(xml.left(400)));
        QVERIFY(xml.contains("<table:table ")); // the financial table is a table
        QVERIFY(xml.contains("$512 million"));

        const QString htmlPath = dir + "/note.html";
        QCOMPARE(exportReport(htmlPath, report), QString());
        QFile html(htmlPath);
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QString body = QString::fromUtf8(html.readAll());
        QVERIFY(body.contains("<table"));
        QVERIFY(body.contains(
            QStringLiteral("¹ %1 (sample-report.pdf), p. 2").arg(sample_.title.toHtmlEscaped())));
    }

    void aDamagedReportFileSaysSo() {
        const QString dir = folio::test::scratchDir("report-damaged");
        QFile f(dir + "/r.folio-report");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"folio-report\", \"version\": 1, \"sections\": [");
        f.close();
        Report r;
        QString error;
        QVERIFY(!loadReport(f.fileName(), r, &error));
        QVERIFY2(error.startsWith("r.folio-report: the report file is damaged"), qPrintable(error));
    }
};

QTEST_MAIN(TestReportGenerator)
#include "test_report_generator.moc"
