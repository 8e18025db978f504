// The comparison template (issue #49 acceptance) on two generated annual reports with known,
// different figures: this year's (document 1) and last year's (document 2), each with the same
// metrics on page 2. A scripted table whose cells cite [doc N, p. K]: each cell verified in the
// document and page it names; a cell citing the wrong document is found in the other one
// (other page of its own document, or not found) and flagged; the export's notes name each
// document and page.
#include <QPainter>
#include <QPdfWriter>
#include <QtTest>

#include "core/documents/document_loader.h"
#include "core/report/builtin_templates.h"
#include "core/report/report_export.h"
#include "core/report/report_generator.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

// Page 1: the title; page 2: "Financial highlights" with the year's figures; page 3: outlook.
void writeAnnualReport(const QString& path, int year, const QStringList& highlights) {
    QPdfWriter writer(path);
    writer.setTitle(QStringLiteral("Contoso Annual Report %1").arg(year));
    QPainter p(&writer);
    p.setFont(QFont(QStringLiteral("DejaVu Sans"), 12));
    p.drawText(QRect(200, 200, 9000, 400),
               QStringLiteral("Contoso Ltd Annual Report %1").arg(year));
    writer.newPage();
    p.drawText(QRect(200, 200, 9000, 400), QStringLiteral("Financial highlights %1").arg(year));
    for (int i = 0; i < highlights.size(); ++i)
        p.drawText(QRect(200, 700 + i * 400, 9000, 380), highlights[i]);
    writer.newPage();
    p.drawText(QRect(200, 200, 9000, 400),
               QStringLiteral("Outlook: we expect steady demand in %1.").arg(year + 1));
}

} // namespace

class TestReportComparison : public QObject {
    Q_OBJECT
private slots:
    void cellsCarryTheirDocumentAndPage() {
        const QString dir = folio::test::scratchDir(QStringLiteral("report-comparison"));
        writeAnnualReport(dir + "/2025.pdf", 2025,
                          {"Revenue was $4,812 million.", "Net profit was $603 million.",
                           "Gross margin was 41.2%."});
        writeAnnualReport(dir + "/2024.pdf", 2024,
                          {"Revenue was $4,390 million.", "Net profit was $512 million.",
                           "Gross margin was 39.8%."});
        const Document now = loadDocument(dir + "/2025.pdf");
        const Document before = loadDocument(dir + "/2024.pdf");
        QCOMPARE(now.state, Document::State::Ready);
        QCOMPARE(before.pageCount, 3);
        QVERIFY2(now.pageTexts[1].contains("4,812"), qPrintable(now.pageTexts[1]));

        const TemplateParse shape = findReportTemplate(QStringLiteral("comparison"), "en");
        QVERIFY2(shape.ok(), qPrintable(shape.error));
        QFile file(shape.value.source);
        QVERIFY(file.open(QIODevice::ReadOnly));
        Report report = newReport(shape.value, QString::fromUtf8(file.readAll()), "comparison");
        ReportInputs inputs;
        int n = 0;
        for (const Document* d : {&now, &before}) {
            report.documents << ReportDocument{d->path, d->title, d->fingerprint, d->pageCount};
            PageSource source;
            source.title = d->title;
            source.pageTexts = d->pageTexts;
            source.number = ++n;
            inputs.documents << source;
        }
        inputs.contextTokens = 4096;

        QStringList asked;
        auto ask = [&](const SectionRequest& r) {
            asked << r.heading;
            SectionAnswer a;
            // Both documents' pages go into every request, each under its own label.
            if (!r.turns[0].content.contains("[document 1: ") ||
                !r.turns[0].content.contains("[document 2: ")) {
                a.status = SectionAnswer::Status::Failed;
                a.error = QStringLiteral("a document is missing from the prompt");
                return a;
            }
            if (r.heading == QLatin1String("Metrics side by side"))
                a.text =
                    "| Metric | Document 1 | Document 2 | Change |\n"
                    "| --- | --- | --- | --- |\n"
                    "| Revenue | $4,812 million [doc 1, p. 2] | $4,390 million [doc 2, p. 2] | "
                    "+9.6% |\n"
                    "| Net profit | $603 million [doc 1, p. 2] | $512 million [doc 1, p. 2] | "
                    "+17.8% |\n"
                    "| Gross margin | 41.2% [doc 1, p. 2] | 39.8% [doc 2, p. 2] | +1.4 pp |\n";
            else
                a.text = "Revenue rose to $4,812 million [doc 1, p. 2] from $4,390 million "
                         "[doc 2, p. 2].";
            return a;
        };
        PageTokenCache cache;
        const ReportRunResult result =
            generateReport(report, inputs, TokenCounter(), cache, ask, {});
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(asked, (QStringList{"Summary of changes", "Metrics side by side",
                                     "What changed and why"}));

        const ReportSection& table = report.sections[1];
        auto figure = [&](const QString& text, int occurrence = 0) -> const CheckedFigure* {
            int seen = 0;
            for (const CheckedFigure& f : table.figures)
                if (f.figure == text && seen++ == occurrence)
                    return &f;
            return nullptr;
        };
        // Each cell in the document and on the page it names.
        for (const char* cell : {"$4,812 million", "$4,390 million", "41.2%", "39.8%"}) {
            const CheckedFigure* f = figure(QString::fromUtf8(cell));
            QVERIFY2(f, cell);
            QCOMPARE(f->state, CheckedFigure::State::Verified);
            QCOMPARE(f->foundPage, 2);
        }
        QCOMPARE(figure("$4,812 million")->document, 0);
        QCOMPARE(figure("$4,390 million")->document, 1);
        QCOMPARE(figure("39.8%")->document, 1);
        // Last year's net profit cited to this year's report: not on that document's pages.
        const CheckedFigure* wrongDocument = figure("$512 million");
        QVERIFY(wrongDocument);
        QCOMPARE(wrongDocument->document, 0);
        QCOMPARE(wrongDocument->state, CheckedFigure::State::NotFound);
        QVERIFY(sectionHasFiguresNotFound(table));

        // The sources section and the notes name each document.
        QVERIFY2(report.sections[3].text.contains("[doc 1]") &&
                     report.sections[3].text.contains("[doc 2]"),
                 qPrintable(report.sections[3].text));
        const QString md = reportMarkdown(report);
        QVERIFY2(md.contains(QStringLiteral("%1 (2025.pdf), p. 2").arg(now.title)), qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("%1 (2024.pdf), p. 2").arg(before.title)));
        QVERIFY(md.contains("2. Metrics side by side — ✗ figures not found"));
    }
};

QTEST_MAIN(TestReportComparison)
#include "test_report_comparison.moc"
