// tools/sample's long reports (long_report.h), read back as the workbench reads them
// (documents/document_loader, QtPdf): page count, a text layer on text pages with the hand-
// computable rare terms and lot numbers, none on scanned pages, contents on page 2, tables,
// distinct pages, determinism from the seed, and clear errors for bad arguments.
#include <QProcess>
#include <QSet>
#include <QtTest>

#include "core/documents/document_loader.h"
#include "support/test_support.h"

using folio::ui::Document;

namespace {

QString generator() {
    return folio::test::builtProgram(QStringLiteral("tools/folio-make-sample"));
}

struct Run {
    int exitCode = -1;
    QString err;
};

Run runGenerator(const QStringList& args) {
    QProcess p;
    p.start(generator(), args);
    if (!p.waitForFinished(120000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardError())};
}

Document load(const QString& path) {
    Document d = folio::ui::loadDocument(path);
    return d;
}

} // namespace

class TestLongReport : public QObject {
    Q_OBJECT
private slots:
    // The 300-page report generated at build time.
    void theBuiltReportHasTextPagesAndScannedPages() {
        const Document d = load(
            folio::test::builtProgram(QStringLiteral("generated/samples/long-report-300.pdf")));
        QVERIFY2(d.state == Document::State::Ready, qPrintable(d.error));
        QCOMPARE(d.pageCount, 300);
        QCOMPARE(d.pageTexts.size(), 300);
        QVERIFY(d.pageTexts[0].contains(QStringLiteral("Meridian Utilities Group")));
        // Page 2: the contents, 25 chapters of 12 pages from page 3.
        QVERIFY2(d.pageTexts[1].trimmed().startsWith(QStringLiteral("Contents")),
                 qPrintable(d.pageTexts[1].left(200)));
        QVERIFY(d.pageTexts[1].contains(QStringLiteral("Chapter 1 ")));
        QVERIFY(d.pageTexts[1].contains(QStringLiteral("page 291"))); // chapter 25: 3 + 24 * 12
        QVERIFY(!d.pageTexts[1].contains(QStringLiteral("Chapter 26")));
        // Scanned pages: every 25th from 25, no text layer at all.
        for (int page = 25; page <= 300; page += 25)
            QVERIFY2(
                d.pageTexts[page - 1].trimmed().isEmpty(),
                qPrintable(QStringLiteral("page %1: %2").arg(page).arg(d.pageTexts[page - 1])));
        // Hand-computed rare terms and lots: 3 -> "Xaze", 3 * 7919 = 23757; 137 -> "Xakozelo",
        // 137 * 7919 = 1084903 -> 84903; 299 -> "Xarisusu", 2367781 -> 67781.
        QVERIFY(d.pageTexts[2].contains(
            QStringLiteral("Field note 3: the Xaze procedure was logged under lot 23757.")));
        QVERIFY(d.pageTexts[136].contains(QStringLiteral("Xakozelo")));
        QVERIFY(d.pageTexts[136].contains(QStringLiteral("lot 84903")));
        QVERIFY(d.pageTexts[298].contains(QStringLiteral("Xarisusu")));
        QVERIFY(d.pageTexts[298].contains(QStringLiteral("lot 67781")));
        // The rare term is on its page only.
        int pagesWithTerm = 0;
        for (const QString& t : d.pageTexts)
            pagesWithTerm += t.contains(QStringLiteral("Xakozelo")) ? 1 : 0;
        QCOMPARE(pagesWithTerm, 1);
        // Tables on pages 3 mod 7 (10, 17, ...), not elsewhere.
        QVERIFY(d.pageTexts[9].contains(QStringLiteral("Table 10:")));
        QVERIFY(d.pageTexts[9].contains(QStringLiteral("Region")));
        QVERIFY(!d.pageTexts[10].contains(QStringLiteral("Table 11:")));
        // Every text page is distinct, holds its field note and a real amount of prose.
        QSet<QString> distinct;
        int textPages = 0;
        for (int page = 3; page <= 300; ++page) {
            if (page % 25 == 0)
                continue;
            const QString& t = d.pageTexts[page - 1];
            QVERIFY2(t.contains(QStringLiteral("Field note %1:").arg(page)),
                     qPrintable(t.left(300)));
            QVERIFY2(t.size() > 1500,
                     qPrintable(QStringLiteral("page %1: %2 chars").arg(page).arg(t.size())));
            distinct.insert(t);
            ++textPages;
        }
        QCOMPARE(textPages, 298 - 12); // pages 3..300 without 25, 50, ..., 300
        QCOMPARE(distinct.size(), textPages);
    }

    void writesReportsOfAnyLengthFromASeed() {
        const QString dir = folio::test::scratchDir(QStringLiteral("long-report"));
        const QString a = dir + QStringLiteral("/a.pdf"), b = dir + QStringLiteral("/b.pdf"),
                      c = dir + QStringLiteral("/c.pdf");
        const QStringList common{QStringLiteral("--pages"),      QStringLiteral("40"),
                                 QStringLiteral("--words"),      QStringLiteral("90"),
                                 QStringLiteral("--scan-every"), QStringLiteral("10")};
        Run r = runGenerator(QStringList{QStringLiteral("--long"), a, QStringLiteral("--seed"),
                                         QStringLiteral("7")} +
                             common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runGenerator(QStringList{QStringLiteral("--long"), b, QStringLiteral("--seed"),
                                     QStringLiteral("7")} +
                         common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runGenerator(QStringList{QStringLiteral("--long"), c, QStringLiteral("--seed"),
                                     QStringLiteral("8")} +
                         common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const Document da = load(a), db = load(b), dc = load(c);
        QVERIFY2(da.state == Document::State::Ready, qPrintable(da.error));
        QCOMPARE(da.pageCount, 40);
        QCOMPARE(da.pageTexts, db.pageTexts); // the same seed: the same text
        for (int page : {10, 20, 30, 40})
            QVERIFY(da.pageTexts[page - 1].trimmed().isEmpty());
        for (int page : {3, 9, 11, 39}) {
            QVERIFY(!da.pageTexts[page - 1].trimmed().isEmpty());
            QVERIFY(da.pageTexts[page - 1] != dc.pageTexts[page - 1]); // another seed
            // Fewer words per page: ~90 words of prose, far below the default 380.
            QVERIFY2(da.pageTexts[page - 1].size() < 1200,
                     qPrintable(QString::number(da.pageTexts[page - 1].size())));
        }
        QVERIFY(da.pageTexts[38].contains(QStringLiteral("Xazesu"))); // 39 -> ze su
    }

    void badArgumentsAreRefused() {
        const QString dir = folio::test::scratchDir(QStringLiteral("long-report-bad"));
        Run r = runGenerator({QStringLiteral("--long"), dir + QStringLiteral("/x.pdf"),
                              QStringLiteral("--pages"), QStringLiteral("many")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--pages needs a non-negative number")),
                 qPrintable(r.err));
        r = runGenerator({QStringLiteral("--long"), dir + QStringLiteral("/x.pdf"),
                          QStringLiteral("--pages"), QStringLiteral("0")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("pages must be")), qPrintable(r.err));
        r = runGenerator({QStringLiteral("--long")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("usage")));
    }
};

QTEST_MAIN(TestLongReport)
#include "test_long_report.moc"
