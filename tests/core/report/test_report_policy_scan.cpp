// The policy brief on a scanned Chinese policy file (issue #49 acceptance): a generated PDF of
// two scanned pages of Chinese policy text (no text layer) is read with OCR (core/ocr, Tesseract
// chi_sim), the built-in zh_CN policy brief is made with a scripted backend that quotes the
// first clause of the page it is shown, and the quoted clause comes from the OCR text of its
// page, cited to that page, in the report and its export.
#include <QtTest>

#include "core/documents/document_loader.h"
#include "core/documents/document_ocr.h"
#include "core/ocr/char_accuracy.h"
#include "core/ocr/scanned_pdf.h"
#include "core/report/builtin_templates.h"
#include "core/report/report_export.h"
#include "core/report/report_generator.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

// The text the prompt holds for page `page` ("[page K]\n…" up to the next marker).
QString promptPage(const QString& system, int page) {
    const QString marker = QStringLiteral("[page %1]\n").arg(page);
    const qsizetype at = system.indexOf(marker);
    if (at < 0)
        return {};
    const qsizetype from = at + marker.size();
    const qsizetype next = system.indexOf(QStringLiteral("\n[page "), from);
    return system.mid(from, next < 0 ? -1 : next - from).trimmed();
}

} // namespace

class TestReportPolicyScan : public QObject {
    Q_OBJECT
private slots:
    void quotedClausesComeFromTheOcrText() {
        const QString dir = folio::test::scratchDir(QStringLiteral("report-policy-scan"));
        qputenv("XDG_CACHE_HOME", (dir + QStringLiteral("/cache")).toUtf8());
        const QString path = dir + QStringLiteral("/policy.pdf");
        const QStringList sources{folio::ocr::chineseScanText(0), folio::ocr::chineseScanText(1)};
        QString error;
        QVERIFY2(
            folio::ocr::writeScannedPdf(path,
                                        {{sources[0], QStringLiteral("WenQuanYi Micro Hei"), 12},
                                         {sources[1], QStringLiteral("WenQuanYi Micro Hei"), 12}},
                                        &error),
            qPrintable(error));
        Document doc = loadDocument(path);
        QCOMPARE(doc.state, Document::State::Ready);
        QCOMPARE(doc.pageCount, 2);
        QVERIFY(doc.pageTexts[0].trimmed().isEmpty()); // a scan: no text layer
        const QString failed = readScannedPagesNow(doc, QStringLiteral("auto"));
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        for (int i = 0; i < 2; ++i) {
            const double accuracy = folio::ocr::characterAccuracy(sources[i], doc.pageTexts[i]);
            qInfo("page %d: OCR character accuracy %.3f", i + 1, accuracy);
            QVERIFY2(accuracy >= 0.95, qPrintable(doc.pageTexts[i]));
        }

        const TemplateParse shape = findReportTemplate(QStringLiteral("policy-brief"), "zh_CN");
        QVERIFY2(shape.ok(), qPrintable(shape.error));
        QFile file(shape.value.source);
        QVERIFY(file.open(QIODevice::ReadOnly));
        Report report = newReport(shape.value, QString::fromUtf8(file.readAll()), "policy-brief");
        report.documents << ReportDocument{doc.path, doc.title, doc.fingerprint, doc.pageCount};
        ReportInputs inputs;
        PageSource source;
        source.title = doc.title;
        source.pageTexts = doc.pageTexts;
        source.number = 1;
        inputs.documents << source;
        inputs.contextTokens = 4096;

        QString quoted;
        auto ask = [&](const SectionRequest& r) {
            SectionAnswer a;
            if (r.heading != QStringLiteral("关键条款")) {
                a.text = QStringLiteral("本政策旨在支持中小企业发展[p. 1]。");
                return a;
            }
            // The clause as the prompt shows page 2: its first sentence, word for word.
            const QString page = promptPage(r.turns[0].content, 2);
            const qsizetype end = page.indexOf(QChar(u'。'));
            quoted = page.left(end > 0 ? end + 1 : 30).simplified();
            a.text = QStringLiteral("- “%1” [p. 2]").arg(quoted);
            return a;
        };
        PageTokenCache cache;
        const ReportRunResult result =
            generateReport(report, inputs, TokenCounter(), cache, ask, {});
        QVERIFY2(result.ok, qPrintable(result.error));
        QVERIFY(quoted.size() >= 10);
        // The clause is the OCR text of page 2 (read at >= 95 % above).
        QVERIFY(doc.pageTexts[1].simplified().contains(quoted));
        const ReportSection& clauses = report.sections[5];
        QCOMPARE(clauses.state, ReportSection::State::Done);
        QVERIFY(clauses.text.contains(quoted));
        QCOMPARE(clauses.pagesUsed[0].pages, (QList<int>{1, 2}));
        const QString md = reportMarkdown(report);
        QVERIFY2(md.contains(QStringLiteral("%1 (policy.pdf), p. 2").arg(doc.title)) ||
                     md.contains(QStringLiteral("(policy.pdf), 第 2 页")),
                 qPrintable(md));
        QVERIFY(md.contains(quoted));
    }
};

QTEST_MAIN(TestReportPolicyScan)
#include "test_report_policy_scan.moc"
