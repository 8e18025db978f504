// The Documents pane and Find with OCR text (issue #46 §1): the sample report's row shows the
// OCR of its scanned page (progress, then "page 8 read with OCR (…, mean confidence …)"); Find
// over the PDF preview finds words of the scanned page (no text layer) and shows the match on
// page 8; the context menu's OCR language reads again; removing a document stops its OCR.
#include <QListWidget>
#include <QMenu>
#include <QPdfDocument>
#include <QPdfPageNavigator>
#include <QPdfView>
#include <QSignalSpy>
#include <QtTest>

#include "core/documents/loaded_documents.h"
#include "core/ocr/scanned_pdf.h"
#include "documents/documents_pane.h"
#include "find/find_bar.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

QString sampleReport() {
    return folio::test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
}

QString rowText(DocumentsPane& pane, int row) {
    return pane.findChild<QListWidget*>(QStringLiteral("documentList"))->item(row)->text();
}

} // namespace

class TestDocumentsOcr : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("documents-ocr-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        qunsetenv("FOLIO_OCR");
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_documents_ocr"));
        if (!QFile::exists(sampleReport())) {
            if (folio::test::isCi())
                QFAIL("sample-report.pdf missing under CI=true (build folio_samples)");
            QSKIP("sample-report.pdf missing: build folio_samples");
        }
    }

    void scannedPageFoundByFind() {
        DocumentsPane pane;
        pane.resize(420, 800);
        pane.show();
        QSignalSpy progress(pane.loadedDocuments(), &LoadedDocuments::ocrProgress);
        QSignalSpy changed(&pane, &DocumentsPane::documentTextChanged);
        QStringList lines; // the row's OCR lines as they were shown
        connect(pane.loadedDocuments(), &LoadedDocuments::ocrProgress, this,
                [&] { lines << pane.ocrLine(0); });
        pane.openFiles({sampleReport()});
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 300000);
        QVERIFY(!progress.isEmpty());
        QVERIFY2(lines.first().startsWith(QStringLiteral("OCR: 0 of 1 pages")),
                 qPrintable(lines.join(QLatin1Char('|'))));
        const QString row = rowText(pane, 0);
        QVERIFY2(row.contains(QStringLiteral("page 8 read with OCR (English + Chinese "
                                             "(Simplified), mean confidence ")),
                 qPrintable(row));
        QVERIFY2(!row.contains(QStringLiteral("without text")), qPrintable(row));
        QCOMPARE(pane.documents().first().origin(7).source, PageOrigin::Source::Ocr);

        // Find over the preview: the scanned page has no text layer, its OCR text is found.
        auto* view = pane.findChild<QPdfView*>();
        QVERIFY(view);
        QTRY_VERIFY_WITH_TIMEOUT(
            view->isVisible() && view->document() && view->document()->pageCount() == 8, 60000);
        FindBar bar(view, pdfSearcher(view));
        bar.open();
        QTest::keyClicks(bar.edit(), QStringLiteral("Hartley & Rowe"));
        QTRY_COMPARE(bar.status(), QStringLiteral("1 of 1"));
        QVERIFY2(bar.matchContext().startsWith(QStringLiteral("p. 8, OCR text: ")) &&
                     bar.matchContext().contains(QStringLiteral("Hartley & Rowe LLP")),
                 qPrintable(bar.matchContext()));
        QCOMPARE(pane.previewPage(), 8);
        // A word of both the text layer (the contents page) and the scan: the matches go in
        // page order, the scan's last.
        view->pageNavigator()->jump(0, QPointF(), view->zoomFactor());
        bar.edit()->clear();
        QTest::keyClicks(bar.edit(), QStringLiteral("statement"));
        QTRY_VERIFY(bar.status().contains(QStringLiteral(" of ")));
        // The text layer's matches (the contents page) arrive as QtPdf searches.
        QTRY_VERIFY(!bar.status().endsWith(QStringLiteral(" of 1")));
        view->pageNavigator()->jump(0, QPointF(), view->zoomFactor());
        for (int i = 0; i < 20 && pane.previewPage() != 8; ++i) {
            QTest::qWait(20); // the text layer is searched page by page in the background
            QTest::keyClick(bar.edit(), Qt::Key_Return);
        }
        QCOMPARE(pane.previewPage(), 8);
        QVERIFY2(bar.matchContext().contains(QStringLiteral("OCR text")),
                 qPrintable(bar.matchContext()));

        // The context menu's language: read again with English alone.
        QCOMPARE(pane.ocrLanguages(0), QStringLiteral("auto"));
        pane.setOcrLanguages(0, QStringLiteral("eng"));
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 2, 300000);
        QCOMPARE(pane.ocrLanguages(0), QStringLiteral("eng"));
        QVERIFY2(rowText(pane, 0).contains(QStringLiteral("page 8 read with OCR (English, mean "
                                                          "confidence ")),
                 qPrintable(rowText(pane, 0)));
        pane.setOcrLanguages(0, QStringLiteral("auto"));
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 3, 300000);
    }

    void removingTheDocumentStopsItsOcr() {
        const QString dir = folio::test::scratchDir(QStringLiteral("documents-ocr-remove"));
        const QString path = dir + QStringLiteral("/scans.pdf");
        QList<folio::ocr::ScanPage> scans;
        for (int i = 0; i < 8; ++i)
            scans.append({folio::ocr::englishScanText(i), QStringLiteral("DejaVu Serif"), 12});
        QString error;
        QVERIFY2(folio::ocr::writeScannedPdf(path, scans, &error), qPrintable(error));
        DocumentsPane pane;
        pane.show();
        LoadedDocuments* loaded = pane.loadedDocuments();
        QSignalSpy finished(loaded, &LoadedDocuments::ocrFinished);
        QSignalSpy messages(&pane, &DocumentsPane::ocrMessage);
        pane.openFiles({path});
        QTRY_VERIFY_WITH_TIMEOUT(loaded->isReadingOcr(path), 60000);
        QTRY_VERIFY(rowText(pane, 0).contains(QStringLiteral("OCR: ")));
        QElapsedTimer clock;
        clock.start();
        pane.removeDocument(0);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        qInfo("OCR stopped %lld ms after the document was removed", clock.elapsed());
        QVERIFY(finished.at(0).at(2).toBool()); // cancelled
        QVERIFY(!loaded->isReadingOcr(path));
        QCOMPARE(pane.documents().size(), 0);
        // Not shown any more: nothing to say about it.
        for (const QList<QVariant>& m : std::as_const(messages))
            QVERIFY2(!m.at(1).toBool(), qPrintable(m.at(0).toString()));
        // Opened again, its OCR goes on from where it stopped.
        pane.openFiles({path});
        QTRY_VERIFY_WITH_TIMEOUT(loaded->isReadingOcr(path), 60000);
        pane.stopOcr(0);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 60000);
        QTRY_VERIFY(pane.ocrLine(0).contains(QStringLiteral("not read with OCR yet")));
    }
};

QTEST_MAIN(TestDocumentsOcr)
#include "test_documents_ocr.moc"
