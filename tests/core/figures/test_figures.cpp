// The figure checker from a table of cases written from the formats' rules
// (docs/FIGURE_CHECK.md), not from the checker's output: each page text and answer is what a
// report and a model would write, each expected state what a careful reader would say.
#include <QtTest>

#include <algorithm>

#include "core/figures/check_figures.h"
#include "core/figures/citation_fix.h"
#include "core/figures/figures_json.h"
#include "core/figures/table_check.h"

using namespace folio::figures;

namespace {

std::vector<SourceDocument> oneDocument(const QStringList& pages) {
    SourceDocument d;
    d.title = "Annual Report";
    d.file_name = "report.pdf";
    for (const QString& p : pages)
        d.pages.push_back(p.toStdString());
    return {d};
}

QString statesOf(const std::vector<FigureResult>& results) {
    QStringList s;
    for (const FigureResult& r : results)
        s << QString::fromLatin1(state_name(r.state));
    return s.join(QLatin1Char(','));
}

QString describe(const std::vector<FigureResult>& results) {
    QStringList s;
    for (const FigureResult& r : results)
        s << QStringLiteral("'%1' %2 page %3 found %4 line '%5'")
                 .arg(QString::fromStdString(r.figure), QString::fromLatin1(state_name(r.state)))
                 .arg(r.page)
                 .arg(r.found_page)
                 .arg(QString::fromStdString(r.line));
    return s.join(QStringLiteral("; "));
}

} // namespace

class TestFigures : public QObject {
    Q_OBJECT

    int rows_ = 0;

    // One case: the document's pages, the answer, the states of its figures in order ("" when
    // it has none) and, where it matters, the page the first figure was found on.
    void add(const char* tag, const QStringList& pages, const QString& answer,
             const QString& states, int foundPage = 0) {
        QTest::newRow(tag) << pages << answer << states << foundPage;
        ++rows_;
    }

private slots:
    void table_data() {
        QTest::addColumn<QStringList>("pages");
        QTest::addColumn<QString>("answer");
        QTest::addColumn<QString>("states");
        QTest::addColumn<int>("foundPage");

        // ---- thousands and decimal separators ------------------------------------------
        add("en grouped", {"Revenue was 1,234.5 million."}, "Revenue was 1,234.5 million [p. 1].",
            "verified", 1);
        add("en grouped vs plain", {"Total 1234.5"}, "The total was 1,234.5 [p. 1].", "verified");
        add("de dot groups, decimal comma", {"Umsatz 1.234,5; Kosten 2.345,6; Marge 3,5"},
            "Revenue was 1,234.5 [p. 1].", "verified");
        add("fr space groups", {"Chiffre d'affaires : 1 234,5 ; charges : 987,6"},
            "Revenue was 1,234.5 [p. 1].", "verified");
        add("no-break space groups", {QStringLiteral("Revenue 1\u00A0234\u00A0567")},
            "Revenue was 1,234,567 [p. 1].", "verified");
        add("answer with decimal comma", {"Revenue 1,234.5"},
            "Der Umsatz betrug 1.234,5 und die Marge 3,5 [p. 1].", "verified,not_found");
        add("en 1,234 is not 1.234", {"Units sold 1,234"}, "Units sold were 1.234 [p. 1].",
            "not_found");
        add("zh grouped", {QStringLiteral("营业收入4,190百万美元")},
            QStringLiteral("营业收入为4,190百万美元[p. 1]。"), "verified");

        // ---- percentages and points ------------------------------------------------------
        add("percent exact", {"Margin 12.4%"}, "The margin was 12.4% [p. 1].", "verified");
        add("percent rounded", {"Margin 12.37%"}, "The margin was 12.4 % [p. 1].", "verified");
        add("percent low edge", {"Margin 12.35%"}, "The margin was 12.4% [p. 1].", "verified");
        add("percent high edge", {"Margin 12.45%"}, "The margin was 12.4% [p. 1].", "verified");
        add("percent below edge", {"Margin 12.34%"}, "The margin was 12.4% [p. 1].", "not_found");
        add("percent above edge", {"Margin 12.46%"}, "The margin was 12.4% [p. 1].", "not_found");
        add("percent word", {"Growth 12.4%"}, "Growth was 12.4 percent [p. 1].", "verified");
        add("per cent", {"Growth 12.4%"}, "Growth was 12.4 per cent [p. 1].", "verified");
        add("12 % is not 0.12", {"Ratio 0.12"}, "The ratio was 12 % [p. 1].", "not_found");
        add("0.12 is not 12 %", {"Ratio 12%"}, "The ratio was 0.12 [p. 1].", "not_found");
        add("percent column", {"Operating margin (%)\n13.6\n14.2\n15.8"},
            "The operating margin reached 15.8% [p. 1].", "verified");
        add("zh percent", {QStringLiteral("净利润同比增长12.1%。")},
            QStringLiteral("净利润增长12.1%[p. 1]。"), "verified");
        add("zh percent in numerals", {"Growth 12.4%"},
            QStringLiteral("收入增长百分之十二点四[p. 1]。"), "verified");
        add("full-width percent", {QStringLiteral("增长１２．４％")},
            QStringLiteral("收入增长12.4%[p. 1]。"), "verified");
        add("percentage points", {"Margin up 2.1 pp"},
            "The margin rose 2.1 percentage points [p. 1].", "verified");
        add("zh percentage points", {"Margin rose 1.6 pp"},
            QStringLiteral("利润率提高1.6个百分点[p. 1]。"), "verified");
        add("basis points", {"Margin rose 0.5 pp"}, "The margin rose 50 basis points [p. 1].",
            "verified");
        add("percent is not an amount", {"Net income $512 million"}, "Net income rose 512% [p. 1].",
            "not_found");

        // ---- rounding with scale words -----------------------------------------------------
        add("billion from millions", {"Revenue 3,183.6 million"}, "Revenue was 3.2 billion [p. 1].",
            "verified");
        add("billion low edge", {"Revenue 3,150.0 million"}, "Revenue was 3.2 billion [p. 1].",
            "verified");
        add("billion below edge", {"Revenue 3,149.9 million"}, "Revenue was 3.2 billion [p. 1].",
            "not_found");
        add("billion high edge", {"Revenue 3,250.0 million"}, "Revenue was 3.2 billion [p. 1].",
            "verified");
        add("billion above edge", {"Revenue 3,250.1 million"}, "Revenue was 3.2 billion [p. 1].",
            "not_found");
        add("two decimals", {"Revenue 3,183.6 million"}, "Revenue was 3.18 billion [p. 1].",
            "verified");
        add("three decimals", {"Revenue 3,183.6 million"}, "Revenue was 3.184 billion [p. 1].",
            "verified");
        add("claim finer than page", {"Revenue 3.2 billion"}, "Revenue was 3.1836 billion [p. 1].",
            "not_found");
        add("1,234 vs 1234.0", {"Units 1234.0"}, "Units were 1,234 [p. 1].", "verified");
        add("1.2 thousand vs 1,234", {"Units 1,234"}, "Units were 1.2 thousand [p. 1].",
            "verified");
        add("1,234 vs 1.2 thousand", {"Units 1.2 thousand"}, "Units were 1,234 [p. 1].",
            "not_found");
        add("integer rounds to half", {"Units 1,234.4"}, "Units were 1,234 [p. 1].", "verified");
        add("integer past half", {"Units 1,234.6"}, "Units were 1,234 [p. 1].", "not_found");
        add("trailing zeros are digits", {"Revenue 3,183.6 million"},
            "Revenue was 3,200 million [p. 1].", "not_found");

        // ---- scale words ---------------------------------------------------------------------
        add("bn", {"Revenue $3,183.6 million"}, "Revenue was $3.2bn [p. 1].", "verified");
        add("m after currency", {"Net income $512 million"}, "Net income was $512m [p. 1].",
            "verified");
        add("m without currency is metres", {"Capex 5,000,000"}, "The hall is 5 m wide [p. 1].",
            "not_found");
        add("thousand", {"Staff 11,950"}, "Staff numbered 12 thousand [p. 1].", "verified");
        add("k after currency", {"Bonus 12,000"}, "The bonus was $12k [p. 1].", "verified");
        add("zh wan", {"Visitors 12,000"}, QStringLiteral("访客1.2万人次[p. 1]。"), "verified");
        add("zh yi with page unit", {QStringLiteral("单位：百万美元\n营业收入\n4,500")},
            QStringLiteral("营业收入45亿美元[p. 1]。"), "verified");
        add("zh qianwan", {QStringLiteral("拨款30,000,000元")},
            QStringLiteral("拨款3千万元[p. 1]。"), "verified");
        add("zh wanyi", {"Assets 1,200,000,000,000"}, QStringLiteral("资产1.2万亿元[p. 1]。"),
            "verified");
        add("zh numerals with wan", {"Grant 35,000,000"},
            QStringLiteral("补贴三千五百万元[p. 1]。"), "verified");
        add("zh numerals with yi", {"Revenue 1,200,000,000"},
            QStringLiteral("收入十二亿元[p. 1]。"), "verified");
        add("zh counting word is no figure", {"Three segments"},
            QStringLiteral("公司有三个业务分部[p. 1]。"), "");

        // ---- the page's unit -----------------------------------------------------------------
        add("unit: cell 512 is $512 million",
            {"All figures in $ million unless stated otherwise.\nNet income\n401\n457\n512"},
            "Net income was $512 million [p. 1].", "verified");
        add("unit: cell 4,500 is $4.5 billion",
            {"All figures in $ million unless stated otherwise.\nRevenue\n3,902\n4,190\n4,500"},
            "Revenue was $4.5 billion [p. 1].", "verified");
        add("no unit: cell 512 is 512", {"Net income\n401\n457\n512"},
            "Net income was $512 million [p. 1].", "not_found");
        add("unit: in thousands", {"(in thousands)\nUnits 1,234"},
            "Units were 1.234 million [p. 1].", "verified");
        add("unit: RMB'000", {"RMB'000\nCash 3,456"}, "Cash was RMB 3.5 million [p. 1].",
            "verified");
        add("unit: zh wanyuan", {QStringLiteral("单位：万元\n收入 12,345")},
            QStringLiteral("收入1.23亿元[p. 1]。"), "verified");
        add("unit: (RMB million)", {"Gross profit (RMB million) 1,899"},
            "Gross profit was RMB 1.9 billion [p. 1].", "verified");
        add("unit: raw digits still match", {"All figures in $ million.\nRevenue 4,500"},
            "Revenue was 4,500 [p. 1].", "verified");

        // ---- negatives -----------------------------------------------------------------------
        add("(3.4) is -3.4", {"Net loss (3.4)"}, "The net result was -3.4 [p. 1].", "verified");
        add("claim (3.4) vs -3.4", {"Net result -3.4"}, "The net result was (3.4) [p. 1].",
            "verified");
        add("signed claim needs the sign", {"Net result 3.4"}, "The net result was -3.4 [p. 1].",
            "not_found");
        add("unsigned claim of a negative", {"All figures in $ million.\nOperating loss (3.4)"},
            "The operating loss was $3.4 million [p. 1].", "verified");
        add("negative percent", {"Change (12.5%)"}, "Sales changed by -12.5% [p. 1].", "verified");
        add("plus sign", {"Revenue +7.4%"}, "Revenue grew +7.4% [p. 1].", "verified");
        add("enumeration is not a negative", {"Risks"},
            "Risks are (1) supply and (2) currency [p. 1].", "");

        // ---- currencies ----------------------------------------------------------------------
        add("HK$", {"Revenue HK$1,200 million"}, "Revenue was HK$1.2 billion [p. 1].", "verified");
        add("euro m unit", {"Revenue (€m) 450"}, "Revenue was €450 million [p. 1].", "verified");
        add("yen sign with yi", {QStringLiteral("收入3.5亿元")},
            QStringLiteral("收入¥3.5亿[p. 1]。"), "verified");
        add("RMB glued", {"Revenue (RMB million) 3,183.6"}, "Revenue was RMB3.2 billion [p. 1].",
            "verified");
        add("US$ vs $", {"Order book $2.31 billion"}, "The order book was US$ 2.31 billion [p. 1].",
            "verified");
        add("zh renminbi", {QStringLiteral("人民币3,200万元")},
            QStringLiteral("收入为人民币3,200万元[p. 1]。"), "verified");

        // ---- years, dates, list numbers, references --------------------------------------------
        add("year alone uncited", {"x"}, "In 2024 the company grew.", "");
        add("year in brackets", {"Revenue $4.5 billion"}, "Revenue was $4.5 billion (2025) [p. 1].",
            "verified");
        add("unscaled claim, scaled page", {"Revenue $4,500 million"},
            "| Revenue ($m) | 4,500 [p. 1] |", "verified");
        add("year beside a cited amount", {"Revenue $4.5 billion"},
            "In 2024 revenue was $4.5 billion [p. 1].", "verified");
        add("2,024 is an amount", {"All figures in $ million.\nCapex 2,024"},
            "Capex was $2,024 million [p. 1].", "verified");
        add("bare 2024 is a year", {"Units 2,024"}, "The plant made 2024 units [p. 1].", "");
        add("year range", {"x"}, "Between 2023 and 2024-2025 margins rose [p. 1].", "");
        add("zh year", {"x"}, QStringLiteral("2025年收入增长[p. 1]。"), "");
        add("list markers", {"Revenue 512, net income 457"},
            "1. Revenue was 512 [p. 1].\n2. Net income was 457 [p. 1].", "verified,verified");
        add("references", {"Revenue 512"}, "As note 5 and table 2 show, revenue was 512 [p. 1].",
            "verified");
        add("names", {"Revenue 1,135"}, "Q3 revenue in FY2024 was 1,135 after COVID-19 [p. 1].",
            "verified");
        add("zh ordinal", {"x"}, QStringLiteral("见第3页[p. 1]。"), "");
        add("date as ISO on page", {"At 2024-12-31 the order book was $2.31 billion."},
            "On 31 December 2024 the order book stood at $2.31 billion [p. 1].",
            "verified,verified");
        add("date not on page", {"Approved on 14 March 2025."},
            "The plan was approved on 15 March 2025 [p. 1].", "not_found");
        add("zh date vs en date", {"Year ended 31 December 2024"},
            QStringLiteral("截至2024年12月31日[p. 1]。"), "verified");
        add("month of year is no figure", {"x"}, "In December 2024 the plant opened [p. 1].", "");
        add("day without year is no figure", {"x"}, "On 1 March the plant opened [p. 1].", "");

        // ---- ranges ---------------------------------------------------------------------------
        add("range of percents", {"organic revenue growth of 5% to 7%"},
            "Growth of 5% to 7% is expected [p. 1].", "verified");
        add("range with one %", {"organic revenue growth of 5% to 7%"},
            "Growth of 5–7% is expected [p. 1].", "verified");
        add("range end missing", {"organic revenue growth of 5% to 7%"},
            "Growth of 5–8% is expected [p. 1].", "not_found");
        add("zh range", {"between 300 million and 500 million"},
            QStringLiteral("预计3至5亿元[p. 1]。"), "verified");
        add("range of basis points", {"margin improvement of 50 to 80 basis points"},
            "Margin should improve 50-80 bps [p. 1].", "verified");

        // ---- citations and states --------------------------------------------------------------
        add("other page", {"Nothing here.", "Revenue 4,500"}, "Revenue was 4,500 [p. 1].",
            "other_page", 2);
        add("only on the next page", {"Intro", "Revenue 3,902", "Revenue 4,190"},
            "Revenue was 4,190 [p. 2].", "other_page", 3);
        add("nearest other page", {"Revenue 4,190", "x", "y", "Revenue 4,190"},
            "Revenue was 4,190 [p. 3].", "other_page", 4);
        add("uncited", {"Revenue 4,500"}, "Revenue was 4,500.", "uncited");
        add("citation after the full stop", {"Revenue 4,500"}, "Revenue was 4,500. [p. 1]",
            "verified");
        add("two citations in a sentence", {"Margin 15.8%", "Revenue 4,500"},
            "Revenue was 4,500 [p. 2] and the margin 15.8% [p. 1].", "verified,verified");
        add("page range citation", {"x", "Revenue 4,500"}, "Revenue was 4,500 [pp. 1-2].",
            "verified", 2);
        add("citation beyond the document", {"Revenue 4,500"}, "Revenue was 4,500 [p. 9].",
            "other_page", 1);
        add("named document", {"Revenue 4,500"}, "Revenue was 4,500 [report.pdf, p. 1].",
            "verified");
        add("code is no figure", {"x"}, "Run `limit = 512` [p. 1].", "");
        add("uncited sentence beside a cited one", {"Revenue 4,500"},
            "Revenue was 4,500 [p. 1]. Staff grew to 11,400.", "verified,uncited");

        // ---- line breaks and OCR
        // ------------------------------------------------------------------
        add("decimal split over lines", {"Revenue 3,183.\n6 million"},
            "Revenue was 3,183.6 million [p. 1].", "verified");
        add("group split over lines", {"Shares 1,234\n,567"}, "Shares were 1,234,567 [p. 1].",
            "verified");
        add("scale on the next line", {"Revenue rose 7.4% to $4.50\nbillion"},
            "Revenue was $4.5 billion [p. 1].", "verified");
        add("OCR O for 0", {"Revenue 1O2.5"}, "Revenue was 102.5 [p. 1].", "verified");
        add("OCR l for 1", {"l,234 units"}, "Units were 1,234 [p. 1].", "verified");
        add("OCR I for 1", {"Staff 11,4OO"}, "Staff were 11,400 [p. 1].", "verified");
        add("OCR leaves words", {"Total lO"}, "The total was 10 [p. 1].", "not_found");
        add("full-width digits", {QStringLiteral("营业收入４，５００")},
            QStringLiteral("营业收入4,500[p. 1]。"), "verified");
        add("zh amount split before currency", {QStringLiteral("达到45.0亿\n美元")},
            QStringLiteral("收入达到45亿美元[p. 1]。"), "verified");
    }

    void table() {
        QFETCH(QStringList, pages);
        QFETCH(QString, answer);
        QFETCH(QString, states);
        QFETCH(int, foundPage);
        const auto results = check_figures(answer.toStdString(), oneDocument(pages));
        QVERIFY2(statesOf(results) == states, qPrintable(describe(results)));
        if (foundPage > 0)
            QCOMPARE(results.front().found_page, foundPage);
    }

    void enoughCases() {
        // The acceptance asks for at least 80 cases from the formats' rules.
        QVERIFY2(rows_ >= 80, qPrintable(QString::number(rows_)));
    }

    void keepsTheLineAndTheFigureAsWritten() {
        const auto results = check_figures(
            "Revenue rose 12.4 % to RMB 3.2 billion [p. 2].",
            oneDocument({"Contents", "Revenue growth 12.37 %\nRevenue (RMB million) 3,183.6"}));
        QCOMPARE(int(results.size()), 2);
        QCOMPARE(QString::fromStdString(results[0].figure), QStringLiteral("12.4 %"));
        QCOMPARE(QString::fromStdString(results[0].line), QStringLiteral("Revenue growth 12.37 %"));
        QCOMPARE(QString::fromStdString(results[1].figure), QStringLiteral("RMB 3.2 billion"));
        QCOMPARE(QString::fromStdString(results[1].line),
                 QStringLiteral("Revenue (RMB million) 3,183.6"));
        QCOMPARE(results[1].page, 2);
        QCOMPARE(results[1].document, 0);
        // Offsets are bytes into the answer.
        QCOMPARE(int(results[1].offset), 23);
        QCOMPARE(int(results[1].length), 15);
    }

    void severalDocuments() {
        SourceDocument a{"Annual Report", "report.pdf", {"Revenue 4,500"}};
        SourceDocument b{"Interim", "interim.pdf", {"Revenue 2,100", "Margin 15.1%"}};
        const auto results = check_figures("Revenue was 2,100 [doc 2, p. 1] and 4,500 [doc 1, p. "
                                           "1]. Margin 15.1% [Interim, p. 2].",
                                           {a, b});
        QCOMPARE(statesOf(results), QStringLiteral("verified,verified,verified"));
        QCOMPARE(results[0].document, 1);
        QCOMPARE(results[1].document, 0);
        QCOMPARE(results[2].document, 1);
        QCOMPARE(results[2].page, 2);
    }

    // The one-click fix of a figure on another page (citation_fix.h): the fixed answer is
    // written by hand from the rule, and the checker then verifies the figure on the new page.
    void citationFix_data() {
        QTest::addColumn<QString>("answer");
        QTest::addColumn<QString>("fixed");
        QTest::newRow("one page replaced") << QStringLiteral("Revenue was 4,500 [p. 3].")
                                           << QStringLiteral("Revenue was 4,500 [p. 5].");
        QTest::newRow("page word kept") << QStringLiteral("Revenue was 4,500 [page 3].")
                                        << QStringLiteral("Revenue was 4,500 [page 5].");
        QTest::newRow("range keeps its pages") << QStringLiteral("Revenue was 4,500 [pp. 2-3].")
                                               << QStringLiteral("Revenue was 4,500 [pp. 2-3, 5].");
        QTest::newRow("list keeps its pages") << QStringLiteral("Revenue was 4,500 [p. 3, 7].")
                                              << QStringLiteral("Revenue was 4,500 [p. 3, 7, 5].");
        QTest::newRow("citation after the full stop")
            << QStringLiteral("Revenue was 4,500. [p. 3]")
            << QStringLiteral("Revenue was 4,500. [p. 5]");
        QTest::newRow("the citation after the figure, not the one before")
            << QStringLiteral("Costs 3,900 [p. 4] against revenue of 4,500 [p. 3].")
            << QStringLiteral("Costs 3,900 [p. 4] against revenue of 4,500 [p. 5].");
        QTest::newRow("Chinese text before it (bytes, not characters)")
            << QStringLiteral("营业收入为 4,500 [p. 3]。")
            << QStringLiteral("营业收入为 4,500 [p. 5]。");
        QTest::newRow("document named by title")
            << QStringLiteral("Revenue was 4,500 [Annual Report, p. 3].")
            << QStringLiteral("Revenue was 4,500 [Annual Report, p. 5].");
    }

    void citationFix() {
        QFETCH(QString, answer);
        QFETCH(QString, fixed);
        const auto docs = oneDocument({"Contents", "Overview", "Costs 3,900", "Outlook",
                                       "Revenue 4,500", "Notes", "Staff", "Debt"});
        const std::string text = answer.toStdString();
        const auto before = check_figures(text, docs);
        const auto r = std::find_if(before.begin(), before.end(),
                                    [](const FigureResult& f) { return f.figure == "4,500"; });
        QVERIFY(r != before.end());
        QCOMPARE(QString::fromLatin1(state_name(r->state)), QStringLiteral("other_page"));
        QCOMPARE(r->found_page, 5);
        const auto fix =
            citation_fix(text, {{docs[0].title, docs[0].file_name, 8}}, r->offset, r->found_page);
        QVERIFY(fix);
        const std::string out = apply_citation_fix(text, *fix);
        QCOMPARE(QString::fromStdString(out), fixed);
        const auto after = check_figures(out, docs);
        const auto v = std::find_if(after.begin(), after.end(),
                                    [](const FigureResult& f) { return f.figure == "4,500"; });
        QVERIFY(v != after.end());
        QCOMPARE(QString::fromLatin1(state_name(v->state)), QStringLiteral("verified"));
        QCOMPARE(v->page, 5);
    }

    void noFixWithoutACitationOrForTheRightPage() {
        const auto docs = oneDocument({"Revenue 4,500"});
        const std::vector<CitationTarget> targets{{"Annual Report", "report.pdf", 1}};
        // No citation: nothing to fix.
        QVERIFY(!citation_fix("Revenue was 4,500.", targets, 12, 1));
        // The citation already names the page.
        QVERIFY(!citation_fix("Revenue was 4,500 [p. 1].", targets, 12, 1));
        // No figure at that offset.
        QVERIFY(!citation_fix("Revenue was 4,500 [p. 1].", targets, 3, 1));
    }

    void sqlResultTable() {
        ResultTable t;
        t.columns = {"region", "revenue (USD million)"};
        t.rows = {{"Europe", "1,071.0"}, {"Asia", "1,186.0"}};
        const auto results =
            check_figures_against_table("Asia had $1.19 billion, Europe $1.3 billion.", t);
        QCOMPARE(statesOf(results), QStringLiteral("verified,not_found"));
        QCOMPARE(QString::fromStdString(results[0].line),
                 QStringLiteral("region = Asia | revenue (USD million) = 1,186.0"));
    }

    void countsAndJson() {
        const auto results = check_figures("Revenue was 4,500 [p. 1]. Margin 9.9% [p. 1]. "
                                           "Staff 11,400 [p. 1]. Debt 0.9 times.",
                                           oneDocument({"Revenue 4,500", "Staff 11,400"}));
        const FigureCounts c = count_figures(results);
        QCOMPARE(
            QString::fromStdString(figures_count_line(c)),
            QStringLiteral("Figures: 1 verified · 1 on another page · 1 not found · 1 uncited"));
        const QJsonDocument json =
            QJsonDocument::fromJson(QByteArray::fromStdString(figures_json(results)));
        QVERIFY(json.isArray());
        const QJsonArray rows = json.array();
        QCOMPARE(rows.size(), 4);
        QCOMPARE(rows[0].toObject()[QStringLiteral("doc")].toInt(), 1);
        QCOMPARE(rows[0].toObject()[QStringLiteral("state")].toString(),
                 QStringLiteral("verified"));
        QCOMPARE(rows[2].toObject()[QStringLiteral("state")].toString(),
                 QStringLiteral("other_page"));
        QCOMPARE(rows[2].toObject()[QStringLiteral("found_page")].toInt(), 2);
        QCOMPARE(rows[2].toObject()[QStringLiteral("page")].toInt(), 1);
        QVERIFY(rows[1].toObject()[QStringLiteral("found_page")].isNull());
        QVERIFY(rows[1].toObject()[QStringLiteral("line")].isNull());
        QVERIFY(rows[3].toObject()[QStringLiteral("page")].isNull());
        QVERIFY(rows[3].toObject()[QStringLiteral("doc")].isNull());
    }
};

QTEST_APPLESS_MAIN(TestFigures)
#include "test_figures.moc"
