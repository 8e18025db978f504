// OCR of a read document's scanned pages (issue #46 §1, core/documents: LoadedDocuments with
// folio_ocr): the sample report's scanned page 8 gets its text (origin OCR with Tesseract's
// confidence, word boxes kept) in the background; a restart reads nothing again (Tesseract's
// pages counted); a damaged cache entry is read again and said; a cancelled OCR keeps what was
// read and goes on later with only the rest; a page Tesseract cannot read, a missing language
// pack (its Debian package named) and a language override. Under CI=true missing samples fail.
#include <QFile>
#include <QJsonObject>
#include <QSignalSpy>
#include <QtTest>

#include "core/chat/chat_json.h"
#include "core/documents/chat_documents.h"
#include "core/documents/document_ocr.h"
#include "core/documents/loaded_documents.h"
#include "core/documents/ocr_find.h"
#include "core/documents/ocr_languages.h"
#include "core/ocr/ocr_cache.h"
#include "core/ocr/scanned_pdf.h"
#include "support/test_support.h"

using folio::ui::ChatDocument;
using folio::ui::ChatDocuments;
using folio::ui::Document;
using folio::ui::LoadedDocuments;
using folio::ui::PageOrigin;

namespace {

QString sampleReport() {
    return folio::test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
}

struct OcrEnd {
    Document document;
    bool cancelled = false;
    QString message;
    bool ok = false;
};

// Reads `path` and waits for the end of its OCR (or of the read when it has no scanned page).
OcrEnd readWithOcr(LoadedDocuments& docs, const QString& path, int timeoutMs = 300000) {
    OcrEnd end;
    QSignalSpy finished(&docs, &LoadedDocuments::ocrFinished);
    docs.read(path);
    if (!finished.wait(timeoutMs) && finished.isEmpty())
        return end;
    const QList<QVariant> args = finished.takeFirst();
    end.document = args.at(1).value<Document>();
    end.cancelled = args.at(2).toBool();
    end.message = args.at(3).toString();
    end.ok = true;
    return end;
}

// A PDF of one page 0.5 pt wide: its picture at 300 dpi is 2 pixels wide, too narrow for
// Tesseract (and it has no text layer, so OCR is asked to read it).
void writeSliverPdf(const QString& path) {
    QByteArray pdf = "%PDF-1.4\n";
    QList<qsizetype> offsets;
    const QList<QByteArray> objects = {"<< /Type /Catalog /Pages 2 0 R >>",
                                       "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                       "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 0.5 400] >>"};
    for (qsizetype i = 0; i < objects.size(); ++i) {
        offsets << pdf.size();
        pdf += QByteArray::number(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
    }
    const qsizetype xref = pdf.size();
    pdf += "xref\n0 4\n0000000000 65535 f \n";
    for (qsizetype o : offsets)
        pdf += QByteArray::number(o).rightJustified(10, '0') + " 00000 n \n";
    pdf +=
        "trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n" + QByteArray::number(xref) + "\n%%EOF\n";
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(pdf);
}

} // namespace

class TestDocumentOcr : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("document-ocr-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        qunsetenv("FOLIO_OCR");
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_document_ocr"));
        if (!QFile::exists(sampleReport())) {
            if (folio::test::isCi())
                QFAIL("sample-report.pdf missing under CI=true (build folio_samples)");
            QSKIP("sample-report.pdf missing: build folio_samples");
        }
        cacheDir_ = folio::test::scratchDir(QStringLiteral("document-ocr-cache"));
    }

    // The scanned page gets its text; a restart takes it from the cache, reading nothing.
    void scannedPageReadThenRestartReadsNothing() {
        Document first;
        {
            LoadedDocuments docs;
            docs.setOcrCacheDir(cacheDir_);
            QSignalSpy progress(&docs, &LoadedDocuments::ocrProgress);
            QSignalSpy updated(&docs, &LoadedDocuments::documentUpdated);
            QElapsedTimer clock;
            clock.start();
            const OcrEnd end = readWithOcr(docs, sampleReport());
            QVERIFY(end.ok);
            qInfo("sample report: scanned page 8 read with OCR in %.1f s",
                  clock.elapsed() / 1000.0);
            QVERIFY2(end.message.isEmpty(), qPrintable(end.message));
            QVERIFY(!end.cancelled);
            first = end.document;
            QCOMPARE(first.pagesNeedingOcr(), (QList<int>{7}));
            const PageOrigin origin = first.origin(7);
            QCOMPARE(origin.source, PageOrigin::Source::Ocr);
            QVERIFY2(origin.confidence > 70, qPrintable(QString::number(origin.confidence)));
            QVERIFY(first.pageTexts[7].contains(QLatin1String("Hartley & Rowe LLP")));
            QVERIFY(first.pageTexts[7].contains(QLatin1String("Key audit matters")));
            QVERIFY(first.pageWords.value(7).size() > 40);
            QCOMPARE(first.origin(0).source, PageOrigin::Source::TextLayer);
            QCOMPARE(first.pagesWithoutText(), 0);
            QVERIFY(first.textKey() != first.fingerprint);
            QCOMPARE(docs.ocrPagesRead(), 1);
            QVERIFY(!progress.isEmpty());
            QCOMPARE(progress.last().at(1).toInt(), 1); // done
            QCOMPARE(progress.last().at(2).toInt(), 1); // of 1
            QCOMPARE(updated.size(), 1);
            // The kept document has the text too (another chat finds it).
            const std::optional<Document> kept = docs.find(sampleReport());
            QVERIFY(kept);
            QCOMPARE(kept->pageTexts[7], first.pageTexts[7]);
            QVERIFY(folio::ui::ocrSummary(first).startsWith(
                QStringLiteral("page 8 read with OCR (English + Chinese (Simplified), mean "
                               "confidence ")));
            // Find in the OCR text: the match's word box on the page.
            const QList<folio::ui::OcrMatch> found =
                folio::ui::findInOcrText(first, QStringLiteral("hartley  & rowe"));
            QCOMPARE(found.size(), 1);
            QCOMPARE(found[0].page, 7);
            QVERIFY(!found[0].box.isEmpty());
            // The last paragraph, below the title and the first paragraph (the scan's picture
            // starts 30 pt from the top; its title is at about 60 pt).
            qInfo("'Hartley & Rowe' at (%.0f, %.0f) pt, %.0f x %.0f", found[0].box.left(),
                  found[0].box.top(), found[0].box.width(), found[0].box.height());
            QVERIFY(found[0].box.top() > 150 && found[0].box.top() < 700);
            QVERIFY(found[0].context.contains(QLatin1String("Statutory Auditor")));
        }
        LoadedDocuments restarted;
        restarted.setOcrCacheDir(cacheDir_);
        QElapsedTimer clock;
        clock.start();
        const OcrEnd again = readWithOcr(restarted, sampleReport());
        QVERIFY(again.ok);
        QCOMPARE(restarted.ocrPagesRead(), 0);
        QCOMPARE(again.document.pageTexts, first.pageTexts);
        QCOMPARE(again.document.pageWords, first.pageWords);
        QCOMPARE(again.document.textKey(), first.textKey());
        qInfo("after a restart: OCR pages read again: %d, ready in %.2f s",
              restarted.ocrPagesRead(), clock.elapsed() / 1000.0);
    }

    void damagedCacheEntryIsReadAgain() {
        const folio::ocr::OcrCache cache(cacheDir_);
        const QString entry = cache.entryPath(folio::ocr::documentFingerprint(sampleReport()), 7,
                                              QStringLiteral("auto"));
        QFile f(entry);
        QVERIFY2(f.open(QIODevice::ReadWrite), qPrintable(entry));
        f.seek(f.size() / 2);
        f.write("garbage");
        f.close();
        LoadedDocuments docs;
        docs.setOcrCacheDir(cacheDir_);
        const OcrEnd end = readWithOcr(docs, sampleReport());
        QVERIFY(end.ok);
        QCOMPARE(docs.ocrPagesRead(), 1);
        QVERIFY2(end.message.contains(QLatin1String("checksum")) &&
                     end.message.contains(QLatin1String("read again")),
                 qPrintable(end.message));
        QCOMPARE(end.document.origin(7).source, PageOrigin::Source::Ocr);
        QVERIFY(end.document.pageTexts[7].contains(QLatin1String("Hartley & Rowe LLP")));
        QVERIFY(
            cache.load(folio::ocr::documentFingerprint(sampleReport()), 7, QStringLiteral("auto")));
    }

    void cancelledOcrKeepsWhatWasReadAndGoesOn() {
        const QString dir = folio::test::scratchDir(QStringLiteral("document-ocr-cancel"));
        const QString path = dir + QStringLiteral("/scans.pdf");
        QList<folio::ocr::ScanPage> scans;
        for (int i = 0; i < 6; ++i)
            scans.append({folio::ocr::englishScanText(i), QStringLiteral("DejaVu Serif"), 12});
        QString error;
        QVERIFY2(folio::ocr::writeScannedPdf(path, scans, &error), qPrintable(error));
        LoadedDocuments docs;
        docs.setOcrCacheDir(dir + QStringLiteral("/cache"));
        QSignalSpy updated(&docs, &LoadedDocuments::documentUpdated);
        QSignalSpy finished(&docs, &LoadedDocuments::ocrFinished);
        const QMetaObject::Connection cancelFirst =
            QObject::connect(&docs, &LoadedDocuments::documentUpdated, &docs,
                             [&docs, path] { docs.cancelOcr(path); });
        docs.read(path);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 300000);
        QVERIFY(finished.at(0).at(2).toBool()); // cancelled
        QVERIFY(!docs.isReadingOcr(path));
        const Document stopped = finished.at(0).at(1).value<Document>();
        const int read = int(stopped.pagesWithSource(PageOrigin::Source::Ocr).size());
        QVERIFY(read >= 1 && read < 6);
        QCOMPARE(stopped.pagesWithSource(PageOrigin::Source::OcrPending).size(), 6 - read);
        QCOMPARE(docs.find(path)->pageTexts, stopped.pageTexts); // kept as far as it got
        QVERIFY(folio::ui::pagesToRead(stopped).size() == 6 - read);
        const int readBefore = docs.ocrPagesRead();
        // Going on reads the rest only (what was read is in the cache).
        QObject::disconnect(cancelFirst);
        QVERIFY(docs.readOcr(path));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 300000);
        QVERIFY(!finished.at(1).at(2).toBool());
        const Document whole = finished.at(1).at(1).value<Document>();
        QCOMPARE(whole.pagesWithSource(PageOrigin::Source::Ocr).size(), 6);
        // A page cancelled within Tesseract is read again; pages done before are not.
        QVERIFY2(docs.ocrPagesRead() - readBefore <= 6 - read + 1,
                 qPrintable(QStringLiteral("%1 read after %2").arg(docs.ocrPagesRead()).arg(read)));
        QVERIFY(whole.pageTexts[1].contains(QLatin1String("internal control")));
        QVERIFY(!docs.readOcr(path)); // nothing left
    }

    void pageTesseractCannotRead() {
        const QString dir = folio::test::scratchDir(QStringLiteral("document-ocr-sliver"));
        const QString path = dir + QStringLiteral("/sliver.pdf");
        writeSliverPdf(path);
        LoadedDocuments docs;
        docs.setOcrCacheDir(dir + QStringLiteral("/cache"));
        const OcrEnd end = readWithOcr(docs, path);
        QVERIFY(end.ok);
        QCOMPARE(end.document.state, Document::State::Ready); // nothing lost
        QCOMPARE(end.document.origin(0).source, PageOrigin::Source::OcrFailed);
        QVERIFY2(end.message.contains(QLatin1String("sliver.pdf")) &&
                     end.message.contains(QLatin1String("page 1")),
                 qPrintable(end.message));
        qInfo("unreadable page: %s", qPrintable(end.message));
        QVERIFY(!end.document.origin(0).error.isEmpty());
        QCOMPARE(end.document.pagesWithoutText(), 1); // goes as an image, as before OCR
    }

    void missingLanguagePackNamesItsPackage() {
        const QString empty = folio::test::scratchDir(QStringLiteral("document-ocr-no-tessdata"));
        const QByteArray old = qgetenv("TESSDATA_PREFIX");
        qputenv("TESSDATA_PREFIX", empty.toUtf8());
        LoadedDocuments docs;
        docs.setOcrCacheDir(folio::test::scratchDir(QStringLiteral("document-ocr-nolang")));
        const OcrEnd end = readWithOcr(docs, sampleReport());
        if (old.isEmpty())
            qunsetenv("TESSDATA_PREFIX");
        else
            qputenv("TESSDATA_PREFIX", old);
        QVERIFY(end.ok);
        QVERIFY2(end.message.contains(QLatin1String("tesseract-ocr-chi-sim")) &&
                     end.message.contains(QLatin1String("tesseract-ocr-eng")) &&
                     end.message.contains(QLatin1String("Northwind")),
                 qPrintable(end.message));
        qInfo("missing language pack: %s", qPrintable(end.message));
        // The document stays as it was read: its text layer, page 8 waiting.
        QCOMPARE(end.document.state, Document::State::Ready);
        QCOMPARE(end.document.origin(7).source, PageOrigin::Source::OcrPending);
        QVERIFY(docs.find(sampleReport()));
        QVERIFY(!docs.isReadingOcr(sampleReport()));
    }

    void languageOverrideReadsAgain() {
        LoadedDocuments docs;
        docs.setOcrCacheDir(cacheDir_);
        const OcrEnd end = readWithOcr(docs, sampleReport());
        QVERIFY(end.ok);
        QCOMPARE(docs.ocrLanguages(sampleReport()), QStringLiteral("auto"));
        QSignalSpy finished(&docs, &LoadedDocuments::ocrFinished);
        docs.setOcrLanguages(sampleReport(), QStringLiteral("eng"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 300000);
        const Document english = finished.at(0).at(1).value<Document>();
        QCOMPARE(english.origin(7).languages, QStringLiteral("eng"));
        QVERIFY(english.pageTexts[7].contains(QLatin1String("Hartley & Rowe LLP")));
        QCOMPARE(docs.ocrLanguages(sampleReport()), QStringLiteral("eng"));
        // Languages set before the read (a chat's choice, restored): the OCR starts with them,
        // and the English reading is taken from the cache.
        LoadedDocuments later;
        later.setOcrCacheDir(cacheDir_);
        later.setOcrLanguages(sampleReport(), QStringLiteral("eng"));
        const OcrEnd again = readWithOcr(later, sampleReport());
        QCOMPARE(again.document.origin(7).languages, QStringLiteral("eng"));
        QCOMPARE(later.ocrPagesRead(), 0);
        // A value that is not a choice is automatic.
        later.setOcrLanguages(sampleReport(), QStringLiteral("klingon"));
        QCOMPARE(later.ocrLanguages(sampleReport()), QStringLiteral("auto"));
        docs.setOcrLanguages(sampleReport(), QStringLiteral("auto"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 300000);
        QCOMPARE(docs.ocrLanguages(sampleReport()), QStringLiteral("auto"));
    }

    // The chat keeps a document's OCR languages (issue #46 §1): a chat file's choice reaches
    // the OCR before the document is read; a change is kept on the chat's document (its JSON,
    // documentsEdited) and reads the scanned page again with the new model — not the cached
    // reading of the other language — while going back takes the earlier reading from the
    // cache (Tesseract's pages counted).
    void theChatKeepsTheDocumentsLanguages() {
        LoadedDocuments loaded;
        loaded.setOcrCacheDir(folio::test::scratchDir(QStringLiteral("document-ocr-chat-lang")));
        ChatDocuments chat(&loaded);
        ChatDocument saved;
        saved.path = sampleReport();
        saved.title = QStringLiteral("sample-report.pdf");
        saved.ocrLanguages = QStringLiteral("eng");
        // As the chat file keeps it.
        const QJsonObject json = folio::ui::documentToJson(saved);
        QCOMPARE(json.value(QStringLiteral("ocr_languages")).toString(), QStringLiteral("eng"));
        QSignalSpy finished(&loaded, &LoadedDocuments::ocrFinished);
        chat.setDocuments({folio::ui::documentFromJson(json)});
        QCOMPARE(loaded.ocrLanguages(sampleReport()), QStringLiteral("eng"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 300000);
        QCOMPARE(finished.at(0).at(1).value<Document>().origin(7).languages, QStringLiteral("eng"));
        QCOMPARE(loaded.ocrPagesRead(), 1);
        QTRY_COMPARE(chat.documents().at(0).origin(7).languages, QStringLiteral("eng"));
        QCOMPARE(chat.ocrLanguages(0), QStringLiteral("eng"));

        QSignalSpy edited(&chat, &ChatDocuments::documentsEdited);
        chat.setOcrLanguages(0, QStringLiteral("chi_sim"));
        QCOMPARE(edited.size(), 1);
        QCOMPARE(chat.chatDocuments().at(0).ocrLanguages, QStringLiteral("chi_sim"));
        QCOMPARE(folio::ui::documentToJson(chat.chatDocuments().at(0))
                     .value(QStringLiteral("ocr_languages"))
                     .toString(),
                 QStringLiteral("chi_sim"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 300000);
        QCOMPARE(finished.at(1).at(1).value<Document>().origin(7).languages,
                 QStringLiteral("chi_sim"));
        QCOMPARE(loaded.ocrPagesRead(), 2); // read again, not the English reading reused

        chat.setOcrLanguages(0, QStringLiteral("eng"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 3, 300000);
        QCOMPARE(finished.at(2).at(1).value<Document>().origin(7).languages, QStringLiteral("eng"));
        QCOMPARE(loaded.ocrPagesRead(), 2); // the English reading, from the cache
        QVERIFY(finished.at(2).at(1).value<Document>().pageTexts[7].contains(
            QLatin1String("Hartley & Rowe LLP")));
        // A choice that is not offered changes nothing.
        chat.setOcrLanguages(0, QStringLiteral("klingon"));
        QCOMPARE(chat.ocrLanguages(0), QStringLiteral("eng"));
        QCOMPARE(edited.size(), 2);
    }

private:
    QString cacheDir_;
};

QTEST_MAIN(TestDocumentOcr)
#include "test_document_ocr.moc"
