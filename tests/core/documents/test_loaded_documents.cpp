// Every file read once for every chat (core/documents/loaded_documents.h, issue #48 §6): a
// second request finds the pages without reading; a changed file is read again; a cancelled
// read is reported and not kept; the budget drops the least recently used document.
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "core/documents/loaded_documents.h"
#include "support/test_support.h"

using folio::ui::Document;
using folio::ui::LoadedDocuments;

namespace {

QString sample(const QString& name) {
    return folio::test::builtProgram(QStringLiteral("generated/samples/") + name);
}

// Reads `path` and waits for its end; the finished signal's arguments.
QList<QVariant> readAndWait(LoadedDocuments& docs, const QString& path) {
    QSignalSpy finished(&docs, &LoadedDocuments::finished);
    docs.read(path);
    if (!finished.wait(120000) && finished.isEmpty())
        return {};
    return finished.takeFirst();
}

} // namespace

class TestLoadedDocuments : public QObject {
    Q_OBJECT
private slots:
    // These are about reading files; OCR of their scanned pages has its own suite
    // (test_document_ocr).
    void initTestCase() { qputenv("FOLIO_OCR", "off"); }

    void readOnceFoundAfter() {
        const QString report = sample(QStringLiteral("sample-report.pdf"));
        QVERIFY2(QFile::exists(report), "build folio_samples first");
        LoadedDocuments docs;
        QVERIFY(!docs.find(report));
        const QList<QVariant> args = readAndWait(docs, report);
        QCOMPARE(args.size(), 3);
        const Document read = args.at(1).value<Document>();
        QCOMPARE(read.state, Document::State::Ready);
        QVERIFY(!args.at(2).toBool());
        const std::optional<Document> found = docs.find(report);
        QVERIFY(found);
        QCOMPARE(found->pageCount, read.pageCount);
        QCOMPARE(found->pageTexts, read.pageTexts);
        QCOMPARE(docs.readsStarted(), 1);
    }

    void changedFileIsReadAgain() {
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("report.pdf"));
        QVERIFY(QFile::copy(sample(QStringLiteral("sample-report.pdf")), copy));
        LoadedDocuments docs;
        readAndWait(docs, copy);
        QVERIFY(docs.find(copy));
        // Another file under the same name (other bytes, a later time).
        QFile::remove(copy);
        QVERIFY(QFile::copy(sample(QStringLiteral("long-report-300.pdf")), copy));
        QFile touched(copy);
        QVERIFY(touched.open(QIODevice::ReadWrite));
        QVERIFY(touched.setFileTime(QDateTime::currentDateTime().addSecs(60),
                                    QFileDevice::FileModificationTime));
        touched.close();
        QVERIFY(!docs.find(copy));
        const Document again = readAndWait(docs, copy).at(1).value<Document>();
        QCOMPARE(again.pageCount, 300);
        QCOMPARE(docs.readsStarted(), 2);
        // A file that went is not found.
        QFile::remove(copy);
        QVERIFY(!docs.find(copy));
    }

    void cancelledReadIsNotKept() {
        const QString longReport = sample(QStringLiteral("long-report-300.pdf"));
        QVERIFY2(QFile::exists(longReport), "build folio_samples first");
        LoadedDocuments docs;
        QSignalSpy progress(&docs, &LoadedDocuments::progress);
        QSignalSpy finished(&docs, &LoadedDocuments::finished);
        docs.read(longReport);
        QVERIFY(docs.isReading(longReport));
        docs.read(longReport); // asked again while reading: the same read
        QCOMPARE(docs.readsStarted(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty(), 60000); // under way
        docs.cancel(longReport);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QVERIFY(finished.at(0).at(2).toBool()); // cancelled
        const Document doc = finished.at(0).at(1).value<Document>();
        QCOMPARE(doc.state, Document::State::Failed);
        QVERIFY2(doc.error.contains(QStringLiteral("cancelled")), qPrintable(doc.error));
        QVERIFY(!docs.isReading(longReport));
        QVERIFY(!docs.find(longReport));
        // Asked for again, it is read again, whole.
        const Document whole = readAndWait(docs, longReport).at(1).value<Document>();
        QCOMPARE(whole.pageCount, 300);
        QCOMPARE(whole.pageTexts.size(), 300);
    }

    void budgetDropsTheLeastRecentlyUsed() {
        const QString a = sample(QStringLiteral("sample-report.pdf"));
        QTemporaryDir dir;
        const QString b = dir.filePath(QStringLiteral("b.pdf"));
        const QString c = dir.filePath(QStringLiteral("c.pdf"));
        QVERIFY(QFile::copy(a, b));
        QVERIFY(QFile::copy(a, c));
        LoadedDocuments docs;
        readAndWait(docs, a);
        qint64 chars = 0;
        const std::optional<Document> first = docs.find(a);
        QVERIFY(first);
        for (const QString& page : first->pageTexts)
            chars += page.size();
        QVERIFY(chars > 1000);
        // Room for two of the three.
        docs.setBudgetChars(chars * 2 + chars / 2);
        readAndWait(docs, b);
        QVERIFY(docs.find(a)); // a used after b: b is the older now
        readAndWait(docs, c);
        QCOMPARE(docs.keptCount(), 2);
        QVERIFY(docs.find(a));
        QVERIFY(!docs.find(b));
        QVERIFY(docs.find(c));
    }

    void failedReadIsNotKept() {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("garbage.pdf"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("%PDF-1.4 this is not a PDF");
        f.close();
        LoadedDocuments docs;
        const QList<QVariant> args = readAndWait(docs, bad);
        QCOMPARE(args.at(1).value<Document>().state, Document::State::Failed);
        QVERIFY(!args.at(2).toBool()); // failed, not cancelled
        QVERIFY(!docs.find(bad));
    }
};

QTEST_MAIN(TestLoadedDocuments)
#include "test_loaded_documents.moc"
