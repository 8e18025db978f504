// An extracted table's figures checked against the pages it came from (issue #46 §2: table
// extraction; core/chat/table_figures.h over core/figures/table_pages.h): planted cells —
// right, wrong, on another page — against the sample report as the workbench reads it, with
// exact counts and each cell's state; a source column sending each row to its own page; a
// column header's unit; the source cells' page lists.
#include <QFile>
#include <QtTest>

#include "core/chat/table_figures.h"
#include "core/documents/document_loader.h"
#include "core/figures/table_pages.h"
#include "support/test_support.h"

#include <QFileInfo>

using namespace folio::ui;
using State = CheckedFigure::State;

namespace {

QString sampleReport() {
    return folio::test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
}

// "Extract table" on page 3 (the financial highlights: "All figures in $ million"): the model
// copied most cells, got 2025 net income wrong (521 for 512), and added a row for Q4 revenue,
// whose 2025 figure is on page 4 ("$1,186 million") and whose 2024 figure (1,108) is only in the
// chart image of page 4, which has no text.
MarkdownTable fromPage3() {
    MarkdownTable t;
    t.header = {QStringLiteral("Metric"), QStringLiteral("2024"), QStringLiteral("2025")};
    t.rows = {{QStringLiteral("Revenue"), QStringLiteral("4,190"), QStringLiteral("4,500")},
              {QStringLiteral("Operating income"), QStringLiteral("595"), QStringLiteral("711")},
              {QStringLiteral("Net income"), QStringLiteral("457"), QStringLiteral("521")},
              {QStringLiteral("Free cash flow"), QStringLiteral("538"), QStringLiteral("603")},
              {QStringLiteral("Employees"), QStringLiteral("11,020"), QStringLiteral("11,400")},
              {QStringLiteral("Q4 revenue"), QStringLiteral("1,108"), QStringLiteral("1,186")}};
    return t;
}

QList<State> states(const QList<CellFigure>& figures, int row, int column) {
    QList<State> out;
    for (const CheckedFigure& f : figuresOfCell(figures, row, column))
        out << f.state;
    return out;
}

} // namespace

class TestTableFigures : public QObject {
    Q_OBJECT
    Document report_;
    FigureSource source_;

private slots:
    void initTestCase() {
        if (!QFile::exists(sampleReport())) {
            if (folio::test::isCi())
                QFAIL("the sample report is missing and CI=true (target folio_samples)");
            QSKIP("the sample report is missing: build the folio_samples target");
        }
        report_ = loadDocument(sampleReport());
        QCOMPARE(report_.state, Document::State::Ready);
        source_ = {report_.title, QFileInfo(report_.path).fileName(), report_.pageTexts};
    }

    void cellsOfATableFromPage3() {
        const QList<CellFigure> figures = checkTableFigures(fromPage3(), source_, {3});
        // Two figures per row, none in the label column.
        QCOMPARE(figures.size(), 12);
        const FigureTally t = tallyFigures(allFigures(figures));
        QCOMPARE(t.verified, 9);
        QCOMPARE(t.otherPage, 1);
        QCOMPARE(t.notFound, 2);
        QCOMPARE(t.uncited, 0);
        QCOMPARE(figuresLine(allFigures(figures)),
                 QStringLiteral("Figures: 9 verified · 1 on another page · 2 not found"));
        for (int row = 0; row < 5; ++row)
            QCOMPARE(states(figures, row, 0), QList<State>{});
        QCOMPARE(states(figures, 0, 1), QList<State>{State::Verified});
        QCOMPARE(states(figures, 0, 2), QList<State>{State::Verified});
        QCOMPARE(states(figures, 2, 1), QList<State>{State::Verified});
        QCOMPARE(states(figures, 2, 2), QList<State>{State::NotFound});
        QCOMPARE(states(figures, 4, 2), QList<State>{State::Verified});
        QCOMPARE(states(figures, 5, 1), QList<State>{State::NotFound});
        QCOMPARE(states(figures, 5, 2), QList<State>{State::OtherPage});

        const CheckedFigure revenue = figuresOfCell(figures, 0, 2).first();
        QCOMPARE(revenue.figure, QStringLiteral("4,500"));
        QCOMPARE(revenue.page, 3);
        QCOMPARE(revenue.foundPage, 3);
        QVERIFY2(revenue.line.contains(QStringLiteral("Revenue 3,902 4,190 4,500")),
                 qPrintable(revenue.line));
        const CheckedFigure q4 = figuresOfCell(figures, 5, 2).first();
        QCOMPARE(q4.page, 3);
        QCOMPARE(q4.foundPage, 4);
        QVERIFY2(q4.line.contains(QStringLiteral("$1,186 million")), qPrintable(q4.line));
        // The page's own figure, as the page writes it (what the preview highlights).
        QCOMPARE(q4.match, QStringLiteral("$1,186 million"));
        QCOMPARE(revenue.match, QStringLiteral("4,500"));
        const CheckedFigure wrong = figuresOfCell(figures, 2, 2).first();
        QCOMPARE(wrong.figure, QStringLiteral("521"));
        QCOMPARE(wrong.foundPage, 0);
        QVERIFY(wrong.line.isEmpty());
        QVERIFY(wrong.match.isEmpty());
        QCOMPARE(wrong.offset, 0);
        QCOMPARE(wrong.length, 3);
    }

    // A source column sends each row to its own page; its cells are not figures.
    void aSourceColumnNamesEachRowsPage() {
        MarkdownTable t;
        t.header = {QStringLiteral("Item"), QStringLiteral("Value"), QStringLiteral("Page")};
        t.rows = {
            {QStringLiteral("Net income"), QStringLiteral("512"), QStringLiteral("6")},
            {QStringLiteral("Free cash flow"), QStringLiteral("603"), QStringLiteral("7")},
            {QStringLiteral("Dividend (cents)"), QStringLiteral("96"), QStringLiteral("p. 2")},
            {QStringLiteral("净利润（亿美元）"), QStringLiteral("5.12"),
             QStringLiteral("pp. 4–5")}};
        // The pages the request sent (1) are not where these rows say they are.
        const QList<CellFigure> figures = checkTableFigures(t, source_, {1});
        QCOMPARE(figures.size(), 4);
        for (int row = 0; row < 4; ++row)
            QCOMPARE(states(figures, row, 2), QList<State>{});
        const CheckedFigure net = figuresOfCell(figures, 0, 1).first();
        QCOMPARE(net.state, State::Verified);
        QCOMPARE(net.foundPage, 6);
        QVERIFY2(net.line.contains(QStringLiteral("净利润")), qPrintable(net.line));
        // 603 is not on page 7; the nearest page that has it is 6 (the Chinese summary).
        const CheckedFigure fcf = figuresOfCell(figures, 1, 1).first();
        QCOMPARE(fcf.state, State::OtherPage);
        QCOMPARE(fcf.page, 7);
        QCOMPARE(fcf.foundPage, 6);
        QCOMPARE(states(figures, 2, 1), QList<State>{State::Verified});
        QCOMPARE(figuresOfCell(figures, 2, 1).first().foundPage, 2);
        // "5.12亿美元" is on page 5, the second page of the row's range.
        const CheckedFigure yi = figuresOfCell(figures, 3, 1).first();
        QCOMPARE(yi.state, State::Verified);
        QCOMPARE(yi.foundPage, 5);
    }

    // A cell's own citation names its page, ahead of the row's and the request's.
    void aCellsCitationNamesItsPage() {
        MarkdownTable t;
        t.header = {QStringLiteral("Item"), QStringLiteral("Value")};
        t.rows = {{QStringLiteral("Free cash flow"), QStringLiteral("603 [p. 6]")},
                  {QStringLiteral("Order book"), QStringLiteral("23.1 [p. 4]")},
                  {QStringLiteral("Net income"), QStringLiteral("512")}};
        const QList<CellFigure> figures = checkTableFigures(t, source_, {1});
        // The citations' page numbers are not figures.
        QCOMPARE(figures.size(), 3);
        const CheckedFigure fcf = figuresOfCell(figures, 0, 1).first();
        QCOMPARE(fcf.state, State::Verified);
        QCOMPARE(fcf.foundPage, 6);
        // "23.1亿美元" is on page 5, not the cited page 4.
        const CheckedFigure orders = figuresOfCell(figures, 1, 1).first();
        QCOMPARE(orders.state, State::OtherPage);
        QCOMPARE(orders.page, 4);
        QCOMPARE(orders.foundPage, 5);
        // No citation: the page the request sent (1, the contents), where 512 is not; the
        // nearest page that has it is 2.
        const CheckedFigure net = figuresOfCell(figures, 2, 1).first();
        QCOMPARE(net.state, State::OtherPage);
        QCOMPARE(net.page, 1);
        QCOMPARE(net.foundPage, 2);
    }

    // A column header's unit scales its bare cells: under "($ bn)" 4.5 is $4.5 billion, which
    // page 3's 4,500 under "All figures in $ million" is; 0.711 is its 711.
    void aHeaderUnitScalesItsCells() {
        MarkdownTable t;
        t.header = {QStringLiteral("Metric"), QStringLiteral("2025 ($ bn)")};
        t.rows = {{QStringLiteral("Revenue"), QStringLiteral("4.5")},
                  {QStringLiteral("Operating income"), QStringLiteral("0.711")},
                  {QStringLiteral("Net income"), QStringLiteral("0.45")},
                  {QStringLiteral("Free cash flow"), QStringLiteral("0.6")}};
        const QList<CellFigure> figures = checkTableFigures(t, source_, {3});
        QCOMPARE(figures.size(), 4);
        QCOMPARE(states(figures, 0, 1), QList<State>{State::Verified});
        QCOMPARE(states(figures, 1, 1), QList<State>{State::Verified});
        // 0.45 billion allows 445 … 455 million: net income is 457, nothing on the page is.
        QCOMPARE(states(figures, 2, 1), QList<State>{State::NotFound});
        // 0.6 billion allows 550 … 650 million: 595 and 603 are on the page.
        QCOMPARE(states(figures, 3, 1), QList<State>{State::Verified});
    }

    void sourceCellsAndColumns() {
        using folio::figures::pages_of_source_cell;
        using folio::figures::source_column;
        QCOMPARE(pages_of_source_cell("3"), (std::vector<int>{3}));
        QCOMPARE(pages_of_source_cell("p. 12"), (std::vector<int>{12}));
        QCOMPARE(pages_of_source_cell("pp. 3\u2013"
                                      "5"),
                 (std::vector<int>{3, 4, 5}));
        QCOMPARE(pages_of_source_cell("pages 7, 3"), (std::vector<int>{3, 7}));
        QCOMPARE(pages_of_source_cell("第 9 页"), (std::vector<int>{9}));
        QCOMPARE(pages_of_source_cell(""), std::vector<int>{});
        QCOMPARE(pages_of_source_cell("n/a"), std::vector<int>{});
        QCOMPARE(source_column({"Item", "Value", "Page"}), 2);
        QCOMPARE(source_column({"Source", "Value"}), 0);
        QCOMPARE(source_column({"项目", "金额", "页码"}), 2);
        QCOMPARE(source_column({"Metric", "2024", "2025"}), -1);
    }
};

QTEST_GUILESS_MAIN(TestTableFigures)
#include "test_table_figures.moc"
