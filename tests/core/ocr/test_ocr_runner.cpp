// The background OCR runner (core/ocr/ocr_runner): generated scanned pages read by two workers
// with progress and an ETA, signals in the runner's thread; a second run (a restart) takes every
// page from the cache; a damaged cache entry is read again; cancel stops within a page, keeps
// what was read, and the next run reads only the rest; a missing language pack and a PDF that
// is not one are refused at start with clear messages.
#include <QSignalSpy>
#include <QThread>
#include <QtTest>

#include "core/ocr/ocr_cache.h"
#include "core/ocr/ocr_runner.h"
#include "core/ocr/scanned_pdf.h"
#include "support/test_support.h"

using namespace folio::ocr;

namespace {

struct Run {
    QList<PageOutcome> outcomes;
    QList<int> progressDone;
    QList<double> etas;
    bool cancelled = false;
    bool finished = false;
    bool signalsInOwnThread = true;
};

// Starts `job`, collects its signals until finished; `cancelAfter` >= 0 cancels once that many
// pages are done (0: right after start).
void runJob(const OcrJob& job, Run& run, int cancelAfter = -1, OcrError* startError = nullptr) {
    OcrRunner runner;
    QObject::connect(&runner, &OcrRunner::pageFinished, [&](const PageOutcome& o) {
        run.outcomes.append(o);
        run.signalsInOwnThread &= QThread::currentThread() == runner.thread();
    });
    QObject::connect(&runner, &OcrRunner::progress, [&](int done, int, double eta) {
        run.progressDone.append(done);
        run.etas.append(eta);
        if (cancelAfter > 0 && done >= cancelAfter)
            runner.cancel();
    });
    QObject::connect(&runner, &OcrRunner::finished, [&](bool cancelled) {
        run.finished = true;
        run.cancelled = cancelled;
    });
    const OcrError e = runner.start(job);
    if (startError)
        *startError = e;
    if (e)
        return;
    if (cancelAfter == 0)
        runner.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(run.finished, 300000);
}

QString englishPdf(const QString& dir, int pages) {
    QList<ScanPage> scans;
    for (int i = 0; i < pages; ++i)
        scans.append({englishScanText(i), QStringLiteral("DejaVu Serif"), 12});
    const QString path = dir + QStringLiteral("/english-%1.pdf").arg(pages);
    QString error;
    if (!writeScannedPdf(path, scans, &error))
        qWarning("%s", qPrintable(error));
    return path;
}

} // namespace

class TestOcrRunner : public QObject {
    Q_OBJECT
private slots:
    void readsThenRestartReadsNothing() {
        const QString dir = folio::test::scratchDir(QStringLiteral("ocr-runner"));
        OcrJob job;
        job.pdfPath = englishPdf(dir, 3);
        QVERIFY(QFileInfo::exists(job.pdfPath));
        job.pages = {0, 1, 2};
        job.languages = {QStringLiteral("eng")};
        job.cacheDir = dir + QStringLiteral("/cache");
        job.threads = 2;
        QElapsedTimer clock;
        clock.start();
        Run first;
        runJob(job, first);
        if (QTest::currentTestFailed())
            return;
        const double seconds = clock.elapsed() / 1000.0;
        QVERIFY(!first.cancelled);
        QCOMPARE(first.outcomes.size(), 3);
        QCOMPARE(first.progressDone, (QList<int>{1, 2, 3}));
        QVERIFY(first.signalsInOwnThread);
        QCOMPARE(first.etas.last(), 0.0);
        for (double eta : first.etas)
            QVERIFY(eta >= 0); // every page was read by Tesseract: the rate is known
        QSet<int> pages;
        for (const PageOutcome& o : first.outcomes) {
            QVERIFY2(!o.error, qPrintable(o.error.message));
            QVERIFY(!o.fromCache);
            QVERIFY(o.cacheNote.isEmpty());
            QCOMPARE(o.ocr.languages, QStringLiteral("eng"));
            QVERIFY(o.ocr.meanConfidence > 70);
            pages.insert(o.page);
        }
        QCOMPARE(pages, (QSet<int>{0, 1, 2}));
        const auto page1 = std::find_if(first.outcomes.begin(), first.outcomes.end(),
                                        [](const PageOutcome& o) { return o.page == 1; });
        QVERIFY(page1->ocr.text.contains(QLatin1String("internal control")));
        qInfo("3 scanned pages, 2 threads: %.1f s (%.2f pages/s)", seconds, 3 / seconds);

        // A restart: the same document, a new runner, nothing read again.
        clock.restart();
        Run second;
        runJob(job, second);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(second.outcomes.size(), 3);
        for (const PageOutcome& o : second.outcomes) {
            QVERIFY(o.fromCache);
            const auto same = std::find_if(first.outcomes.begin(), first.outcomes.end(),
                                           [&](const PageOutcome& f) { return f.page == o.page; });
            QCOMPARE(o.ocr, same->ocr);
        }
        QVERIFY(clock.elapsed() < 5000);

        // A damaged entry is noticed and that page alone is read again.
        const OcrCache cache(job.cacheDir);
        const QString fp = documentFingerprint(job.pdfPath);
        const QString entry = cache.entryPath(fp, 1, QStringLiteral("eng"));
        QFile f(entry);
        QVERIFY(f.open(QIODevice::ReadWrite));
        f.seek(f.size() - 20);
        f.write("XXXX");
        f.close();
        Run third;
        runJob(job, third);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(third.outcomes.size(), 3);
        for (const PageOutcome& o : third.outcomes) {
            QCOMPARE(o.fromCache, o.page != 1);
            QVERIFY(!o.error);
            if (o.page == 1) {
                QVERIFY2(o.cacheNote.contains(QLatin1String("checksum")), qPrintable(o.cacheNote));
                QCOMPARE(o.ocr.text, page1->ocr.text);
            }
        }
        QVERIFY(cache.load(fp, 1, QStringLiteral("eng")));
    }

    // Auto languages: the first page is read with both models, its script then picks the model
    // for the rest; a hint from the text layer applies from the first page.
    void autoLanguagesLearnTheDocumentsScript() {
        const QString dir = folio::test::scratchDir(QStringLiteral("ocr-runner-auto"));
        OcrJob job;
        job.pdfPath = englishPdf(dir, 3);
        job.pages = {0, 1, 2};
        job.useCache = false;
        job.threads = 1;
        Run run;
        runJob(job, run);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(run.outcomes.size(), 3);
        QCOMPARE(run.outcomes[0].page, 0);
        QCOMPARE(run.outcomes[0].ocr.languages, QStringLiteral("eng+chi_sim"));
        QCOMPARE(run.outcomes[1].ocr.languages, QStringLiteral("eng"));
        QCOMPARE(run.outcomes[2].ocr.languages, QStringLiteral("eng"));
        for (const PageOutcome& o : run.outcomes)
            QVERIFY(o.ocr.meanConfidence > 70);

        job.languageHint = QStringLiteral("eng");
        job.pages = {1};
        Run hinted;
        runJob(job, hinted);
        QCOMPARE(hinted.outcomes.size(), 1);
        QCOMPARE(hinted.outcomes[0].ocr.languages, QStringLiteral("eng"));
    }

    void cancelKeepsWhatWasRead() {
        const QString dir = folio::test::scratchDir(QStringLiteral("ocr-runner-cancel"));
        OcrJob job;
        job.pdfPath = englishPdf(dir, 6);
        job.pages = {0, 1, 2, 3, 4, 5};
        job.languages = {QStringLiteral("eng")};
        job.cacheDir = dir + QStringLiteral("/cache");
        job.threads = 1;
        // Cancelled at once: Tesseract is stopped within its first page.
        QElapsedTimer clock;
        clock.start();
        Run none;
        runJob(job, none, 0);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(none.cancelled);
        QVERIFY(none.outcomes.size() <= 1);
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));

        // Cancelled after two pages: those two stay cached, the next run reads the other four.
        Run part;
        runJob(job, part, 2);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(part.cancelled);
        QVERIFY(part.outcomes.size() >= 2 && part.outcomes.size() < 6);
        const qsizetype kept = part.outcomes.size();
        Run rest;
        runJob(job, rest);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(!rest.cancelled);
        QCOMPARE(rest.outcomes.size(), 6);
        qsizetype cached = 0;
        for (const PageOutcome& o : rest.outcomes) {
            QVERIFY(!o.error);
            cached += o.fromCache ? 1 : 0;
        }
        QCOMPARE(cached, kept);
        // While some pages came from the cache, the ETA is known once one page has been read.
        QCOMPARE(rest.etas.last(), 0.0);
    }

    void refusedAtStart() {
        const QString dir = folio::test::scratchDir(QStringLiteral("ocr-runner-bad"));
        OcrJob job;
        job.pdfPath = englishPdf(dir, 1);
        job.pages = {0};
        job.useCache = false;
        job.languages = {QStringLiteral("eng+xq_bogus")};
        OcrError e;
        Run run;
        runJob(job, run, -1, &e);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(e.kind, OcrErrorKind::MissingLanguage);
        QVERIFY2(e.message.contains(QLatin1String("tesseract-ocr-xq-bogus")),
                 qPrintable(e.message));
        QVERIFY(run.outcomes.isEmpty());

        job.languages = {QStringLiteral("eng")};
        job.pages = {3};
        {
            Run ignored;
            runJob(job, ignored, -1, &e);
        }
        QCOMPARE(e.kind, OcrErrorKind::BadDocument);
        QVERIFY2(e.message.contains(QLatin1String("no page 4")), qPrintable(e.message));

        job.pdfPath = dir + QStringLiteral("/not-a.pdf");
        QFile f(job.pdfPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not a PDF at all");
        f.close();
        job.pages = {0};
        {
            Run ignored;
            runJob(job, ignored, -1, &e);
        }
        QCOMPARE(e.kind, OcrErrorKind::BadDocument);
        QVERIFY2(e.message.contains(QLatin1String("not-a.pdf")), qPrintable(e.message));

        // No pages: finishes at once, not cancelled.
        job.pdfPath = englishPdf(dir, 1);
        job.pages = {};
        Run empty;
        runJob(job, empty, -1, &e);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(!e);
        QVERIFY(empty.finished && !empty.cancelled);
    }
};

QTEST_MAIN(TestOcrRunner)
#include "test_ocr_runner.moc"
