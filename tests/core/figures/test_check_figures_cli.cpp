// `folio-cli check-figures` on the generated sample report (tools/sample): an answer with planted
// figures, some right, some wrong, some on another page, some uncited. The expected states were
// written by hand from the report's page text as pdftotext prints it (docs/FIGURE_CHECK.md):
//   p. 2  Chairman's letter: 7.4%, $4.50 billion, 15.8%, 12.1%, $389 million (8.6% of revenue),
//         96 cents, $603 million, $2.31 billion, 11,400 colleagues
//   p. 3  Financial highlights, "All figures in $ million": Net income 401 457 512; EPS 2.67 3.04
//         3.41; no 12.1
//   p. 4  Revenue by quarter: $1,186 million
//   p. 5  董事长致辞: 5.12亿美元, 96美分, 23.1亿美元
//   p. 6  财务摘要 (单位：百万美元): Asia's share 31% → 34%
//   p. 7  Outlook: growth of 5% to 7%, synergies of $18 million by 2027
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "support/test_support.h"

namespace {

// Each line's planted figures and what a reader of the report finds.
const char* const kAnswer =
    "## Northwind in 2025\n"
    "Northwind's revenue rose 7.4% to $4.5 billion in 2025 [p. 2].\n" // verified, verified
    "Operating margin was 15.8% [p. 2].\n"                            // verified
    "Net income was $512 million, up 12.1% [p. 3].\n" // verified (table, $ million); p. 2
    "Free cash flow was $640 million [p. 2].\n"       // not found (the report says $603 million)
    "The order book stood at $2.31 billion [p. 4].\n" // on p. 5 (23.1亿美元), nearer than p. 2
    "Research and development spending was $389 million, 8.6% of revenue [p. 2].\n" // 2 verified
    "Diluted earnings per share were $3.14 [p. 3].\n"                  // not found (3.41)
    "Northwind employs 11,400 people.\n"                               // uncited
    "The fourth quarter was the strongest at $1,186 million [p. 4].\n" // verified
    "净利润为5.12亿美元[p. 5]。\n"                                     // verified
    "2026年营业收入预计增长5%至7%[p. 7]。\n"           // verified (a range; 2026年 is a year)
    "Synergies of $18 million are targeted by 2027.\n" // uncited (2027 is a year)
    "The dividend was 96 cents [p. 6].\n"              // on p. 5 (96美分), nearer than p. 2
    "Asia's share of revenue rose to 43% [p. 6].\n";   // not found (34%)

QString sampleReport() {
    return folio::test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
}

QJsonObject rowFor(const QJsonArray& rows, const QString& figure) {
    for (const QJsonValue& v : rows)
        if (v.toObject()[QStringLiteral("figure")].toString() == figure)
            return v.toObject();
    return {};
}

} // namespace

class TestCheckFiguresCli : public QObject {
    Q_OBJECT
    QString dir_, answer_;

private slots:
    void initTestCase() {
        if (folio::test::underThreadSanitizer())
            QSKIP("starts folio-cli (QProcess) under ThreadSanitizer");
        if (!QFile::exists(sampleReport())) {
            if (folio::test::isCi())
                QFAIL("the sample report is missing and CI=true (target folio_samples)");
            QSKIP("the sample report is missing: build the folio_samples target");
        }
        dir_ = folio::test::scratchDir(QStringLiteral("check-figures-cli"));
        answer_ = dir_ + QStringLiteral("/answer.md");
        QFile f(answer_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kAnswer);
    }

    void plantedFigures() {
        const QString out = dir_ + QStringLiteral("/figures.json");
        const auto r =
            folio::test::runCli({QStringLiteral("check-figures"), QStringLiteral("--answer"),
                                 answer_, sampleReport(), QStringLiteral("-o"), out},
                                60000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(
            r.out.trimmed(),
            QStringLiteral("Figures: 9 verified · 3 on another page · 3 not found · 2 uncited"));

        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonDocument json = QJsonDocument::fromJson(f.readAll());
        QVERIFY(json.isArray());
        const QJsonArray rows = json.array();
        QCOMPARE(rows.size(), 17);

        const QJsonObject revenue = rowFor(rows, QStringLiteral("$4.5 billion"));
        QCOMPARE(revenue[QStringLiteral("state")].toString(), QStringLiteral("verified"));
        QCOMPARE(revenue[QStringLiteral("doc")].toInt(), 1);
        QCOMPARE(revenue[QStringLiteral("page")].toInt(), 2);
        QVERIFY2(revenue[QStringLiteral("line")].toString().contains(QStringLiteral("$4.50")),
                 qPrintable(revenue[QStringLiteral("line")].toString()));

        const QJsonObject netIncome = rowFor(rows, QStringLiteral("$512 million"));
        QCOMPARE(netIncome[QStringLiteral("state")].toString(), QStringLiteral("verified"));
        QCOMPARE(netIncome[QStringLiteral("found_page")].toInt(), 3);

        const QJsonObject growth = rowFor(rows, QStringLiteral("12.1%"));
        QCOMPARE(growth[QStringLiteral("state")].toString(), QStringLiteral("other_page"));
        QCOMPARE(growth[QStringLiteral("page")].toInt(), 3);
        QCOMPARE(growth[QStringLiteral("found_page")].toInt(), 2);
        QVERIFY(growth[QStringLiteral("line")].toString().contains(QStringLiteral("12.1%")));

        const QJsonObject orders = rowFor(rows, QStringLiteral("$2.31 billion"));
        QCOMPARE(orders[QStringLiteral("state")].toString(), QStringLiteral("other_page"));
        QCOMPARE(orders[QStringLiteral("found_page")].toInt(), 5);
        QVERIFY(orders[QStringLiteral("line")].toString().contains(QStringLiteral("23.1亿美元")));

        const QJsonObject cashFlow = rowFor(rows, QStringLiteral("$640 million"));
        QCOMPARE(cashFlow[QStringLiteral("state")].toString(), QStringLiteral("not_found"));
        QCOMPARE(cashFlow[QStringLiteral("page")].toInt(), 2);
        QVERIFY(cashFlow[QStringLiteral("found_page")].isNull());
        QVERIFY(cashFlow[QStringLiteral("line")].isNull());

        const QJsonObject staff = rowFor(rows, QStringLiteral("11,400"));
        QCOMPARE(staff[QStringLiteral("state")].toString(), QStringLiteral("uncited"));
        QVERIFY(staff[QStringLiteral("page")].isNull());
        QVERIFY(staff[QStringLiteral("doc")].isNull());

        QCOMPARE(rowFor(rows, QStringLiteral("5.12亿美元"))[QStringLiteral("state")].toString(),
                 QStringLiteral("verified"));
        QCOMPARE(rowFor(rows, QStringLiteral("5%至7%"))[QStringLiteral("state")].toString(),
                 QStringLiteral("verified"));
        // Years are not figures.
        QVERIFY(rowFor(rows, QStringLiteral("2025")).isEmpty());
        QVERIFY(rowFor(rows, QStringLiteral("2027")).isEmpty());
    }

    void textPagesNeedNoPdf() {
        // Form feeds separate pages, as pdftotext writes them.
        const QString doc = dir_ + QStringLiteral("/pages.txt");
        QFile f(doc);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("Contents\fAll figures in $ million.\nRevenue 4,500\f");
        f.close();
        const QString answer = dir_ + QStringLiteral("/short.md");
        QFile a(answer);
        QVERIFY(a.open(QIODevice::WriteOnly));
        a.write("Revenue was $4.5 billion [p. 2]. Revenue was $4.5 billion [p. 1].");
        a.close();
        const auto r = folio::test::runCli(
            {QStringLiteral("check-figures"), QStringLiteral("--answer"), answer, doc}, 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(
            r.out.trimmed(),
            QStringLiteral("Figures: 1 verified · 1 on another page · 0 not found · 0 uncited"));
    }

    void badInput() {
        const auto noAnswer =
            folio::test::runCli({QStringLiteral("check-figures"), sampleReport()}, 30000);
        QCOMPARE(noAnswer.exitCode, 2);
        QVERIFY2(noAnswer.err.contains(QStringLiteral("--answer")), qPrintable(noAnswer.err));
        const QString missing = dir_ + QStringLiteral("/missing.pdf");
        const auto noDoc = folio::test::runCli(
            {QStringLiteral("check-figures"), QStringLiteral("--answer"), answer_, missing}, 30000);
        QCOMPARE(noDoc.exitCode, 1);
        QVERIFY2(noDoc.err.contains(QStringLiteral("missing.pdf")), qPrintable(noDoc.err));
    }
};

QTEST_GUILESS_MAIN(TestCheckFiguresCli)
#include "test_check_figures_cli.moc"
