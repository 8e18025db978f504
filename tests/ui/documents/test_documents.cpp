// Document loading: the generated sample report (text per page, English and Chinese, the
// scanned page), images, and hostile input (corrupt PDF, truncated PNG, oversized image).
#include <QElapsedTimer>
#include <QImage>
#include <QtTest>

#include "core/documents/document_loader.h"
#include "core/export/transcript_export.h"
#include "core/storage/atomic_write.h"
#include "support/test_support.h"

using folio::ui::Document;
using folio::ui::loadDocument;

namespace {

QString sample(const QString& name) {
    return folio::test::builtProgram(QStringLiteral("generated/samples/") + name);
}

void writeBytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// CRC-32 (ISO 3309) as PNG chunks use it.
quint32 crc32(const QByteArray& data) {
    quint32 crc = 0xFFFFFFFFu;
    for (char ch : data) {
        crc ^= static_cast<quint8>(ch);
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

QByteArray be32(quint32 v) {
    QByteArray b(4, 0);
    for (int i = 0; i < 4; ++i)
        b[i] = static_cast<char>((v >> (24 - 8 * i)) & 0xFF);
    return b;
}

} // namespace

class TestDocuments : public QObject {
    Q_OBJECT
private slots:
    void sampleReportHasTextPerPage() {
        Document d = loadDocument(sample(QStringLiteral("sample-report.pdf")));
        QCOMPARE(d.state, Document::State::Ready);
        QCOMPARE(d.kind, Document::Kind::Pdf);
        QCOMPARE(d.pageCount, 8);
        QCOMPARE(d.pageTexts.size(), 8);
        QCOMPARE(d.title, QStringLiteral("Northwind Instruments plc - Annual Report 2025"));
        QVERIFY(d.pageTexts[1].contains(QStringLiteral("Revenue rose 7.4%")));
        QVERIFY(d.pageTexts[2].contains(QStringLiteral("Operating income")));
        QVERIFY(d.pageTexts[2].contains(QStringLiteral("4,500")));
        QVERIFY(d.pageTexts[4].contains(QStringLiteral("营业收入")));
        QVERIFY(d.pageTexts[5].contains(QStringLiteral("财务摘要")));
        // Page 8 is a picture of a signed statement: no text layer.
        QVERIFY(d.pageTexts[7].trimmed().isEmpty());
        QCOMPARE(d.pagesWithoutText(), 1);
        QVERIFY(d.estimatedTokens() > 800 && d.estimatedTokens() < 5000);
    }

    void chartImageLoads() {
        Document d = loadDocument(sample(QStringLiteral("revenue-chart.png")));
        QCOMPARE(d.state, Document::State::Ready);
        QCOMPARE(d.kind, Document::Kind::Image);
        QCOMPARE(d.imageSize, QSize(800, 500));
        QCOMPARE(d.pageCount, 1);
    }

    void corruptPdfIsACleanError() {
        const QString dir = folio::test::scratchDir(QStringLiteral("documents"));
        QFile src(sample(QStringLiteral("sample-report.pdf")));
        QVERIFY(src.open(QIODevice::ReadOnly));
        writeBytes(dir + QStringLiteral("/garbage.pdf"),
                   QByteArray("%PDF-1.4\nthis is not a pdf at all\n"));
        Document d = loadDocument(dir + QStringLiteral("/garbage.pdf"));
        QCOMPARE(d.state, Document::State::Failed);
        QVERIFY2(d.error.startsWith(QStringLiteral("garbage.pdf: ")), qPrintable(d.error));
    }

    // A text file with a .pdf name is not a "corrupt or truncated" PDF (issue #48 §10): the
    // message says what it is; a damaged PDF (it begins like one) still says damaged.
    void textNamedPdfIsNamedForWhatItIs() {
        const QString dir = folio::test::scratchDir(QStringLiteral("documents-text-pdf"));
        writeBytes(dir + QStringLiteral("/notes.pdf"), QByteArray("Meeting notes\nRevenue up.\n"));
        const Document text = loadDocument(dir + QStringLiteral("/notes.pdf"));
        QCOMPARE(text.state, Document::State::Failed);
        QVERIFY2(text.error.contains(QStringLiteral("not a PDF file")), qPrintable(text.error));
        QVERIFY2(!text.error.contains(QStringLiteral("corrupt")), qPrintable(text.error));
        writeBytes(dir + QStringLiteral("/cut.pdf"), QByteArray("%PDF-1.4\n1 0 obj\n<<"));
        const Document cut = loadDocument(dir + QStringLiteral("/cut.pdf"));
        QCOMPARE(cut.state, Document::State::Failed);
        QVERIFY2(cut.error.contains(QStringLiteral("corrupt or truncated")), qPrintable(cut.error));
    }

    void truncatedPngIsACleanError() {
        const QString dir = folio::test::scratchDir(QStringLiteral("documents-png"));
        QFile src(sample(QStringLiteral("revenue-chart.png")));
        QVERIFY(src.open(QIODevice::ReadOnly));
        writeBytes(dir + QStringLiteral("/cut.png"), src.readAll().left(300));
        Document d = loadDocument(dir + QStringLiteral("/cut.png"));
        QCOMPARE(d.state, Document::State::Failed);
        QVERIFY2(d.error.contains(QStringLiteral("cut.png")), qPrintable(d.error));
    }

    // Issue #48 §13: a JPEG cut short was accepted and previewed (Qt fills it with grey), then
    // refused at the question naming an internal file. It is refused when opened, saying why;
    // the whole file loads.
    void truncatedJpegIsRefusedWhenOpened() {
        const QString dir = folio::test::scratchDir(QStringLiteral("documents-jpeg"));
        QImage image(640, 480, QImage::Format_RGB32);
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                image.setPixel(x, y, qRgb(x % 256, y % 256, (x * y) % 256));
        const QString whole = dir + QStringLiteral("/whole.jpg");
        QVERIFY(image.save(whole, "JPEG", 90));
        QFile src(whole);
        QVERIFY(src.open(QIODevice::ReadOnly));
        const QByteArray bytes = src.readAll();
        QVERIFY(bytes.size() > 4000);
        writeBytes(dir + QStringLiteral("/cut.jpg"), bytes.left(bytes.size() * 2 / 3));
        // Padding after the end marker (some cameras write it) is still a whole file.
        writeBytes(dir + QStringLiteral("/padded.jpg"), bytes + QByteArray(64, '\0'));

        const Document cut = loadDocument(dir + QStringLiteral("/cut.jpg"));
        QCOMPARE(cut.state, Document::State::Failed);
        QVERIFY2(cut.error.contains(QStringLiteral("cut.jpg")) &&
                     cut.error.contains(QStringLiteral("cut short")),
                 qPrintable(cut.error));
        QVERIFY(cut.thumbnail.isNull());
        QCOMPARE(loadDocument(whole).state, Document::State::Ready);
        const Document padded = loadDocument(dir + QStringLiteral("/padded.jpg"));
        QCOMPARE(padded.state, Document::State::Ready);
        QCOMPARE(padded.imageSize, QSize(640, 480));
    }

    void hugeImageIsRefusedBeforeDecoding() {
        // A PNG whose header claims 20000 x 20000 pixels (400 MP) followed by no image data.
        QByteArray ihdr =
            QByteArray("IHDR") + be32(20000) + be32(20000) + QByteArray("\x08\x02\x00\x00\x00", 5);
        QByteArray idat("IDAT"), iend("IEND");
        QByteArray png = QByteArray("\x89PNG\r\n\x1a\n", 8) + be32(13) + ihdr + be32(crc32(ihdr)) +
                         be32(0) + idat + be32(crc32(idat)) + be32(0) + iend + be32(crc32(iend));
        const QString dir = folio::test::scratchDir(QStringLiteral("documents-huge"));
        writeBytes(dir + QStringLiteral("/huge.png"), png);
        Document d = loadDocument(dir + QStringLiteral("/huge.png"));
        QCOMPARE(d.state, Document::State::Failed);
        QVERIFY2(d.error.contains(QStringLiteral("20000x20000")) &&
                     d.error.contains(QStringLiteral("64 MP")),
                 qPrintable(d.error));
    }

    void hundredThousandPagePdfIsRefusedQuickly() {
        // A valid PDF of 100000 empty pages (written by hand: catalog, one page tree, pages,
        // cross-reference table), so the refusal comes from the page limit, not a parse error.
        const int pages = 100000;
        QByteArray pdf("%PDF-1.4\n");
        QList<qint64> offsets;
        auto object = [&](const QByteArray& body) {
            offsets.append(pdf.size());
            pdf += QByteArray::number(offsets.size()) + " 0 obj\n" + body + "\nendobj\n";
        };
        object("<< /Type /Catalog /Pages 2 0 R >>");
        QByteArray kids;
        kids.reserve(pages * 10);
        for (int i = 0; i < pages; ++i)
            kids += QByteArray::number(3 + i) + " 0 R ";
        object("<< /Type /Pages /Count " + QByteArray::number(pages) + " /Kids [" + kids + "] >>");
        for (int i = 0; i < pages; ++i)
            object("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>");
        const qint64 xref = pdf.size();
        pdf += "xref\n0 " + QByteArray::number(offsets.size() + 1) + "\n0000000000 65535 f \n";
        for (qint64 off : offsets)
            pdf += QByteArray::number(off).rightJustified(10, '0') + " 00000 n \n";
        pdf += "trailer\n<< /Size " + QByteArray::number(offsets.size() + 1) +
               " /Root 1 0 R >>\nstartxref\n" + QByteArray::number(xref) + "\n%%EOF\n";
        const QString dir = folio::test::scratchDir(QStringLiteral("documents-pages"));
        writeBytes(dir + QStringLiteral("/pages.pdf"), pdf);

        QElapsedTimer timer;
        timer.start();
        int progressCalls = 0;
        Document d =
            loadDocument(dir + QStringLiteral("/pages.pdf"), [&](int, int) { ++progressCalls; });
        const qint64 ms = timer.elapsed();
        QCOMPARE(d.state, Document::State::Failed);
        QVERIFY2(d.error.contains(QStringLiteral("pages.pdf")) &&
                     d.error.contains(QStringLiteral("100000 pages")),
                 qPrintable(d.error));
        QCOMPARE(progressCalls, 0); // no page was read
        qInfo("100000-page PDF refused in %lld ms", static_cast<long long>(ms));
        QVERIFY(ms < 20000);
    }

    void missingFileAndUnsupportedType() {
        Document d = loadDocument(QStringLiteral("/nonexistent/report.pdf"));
        QCOMPARE(d.state, Document::State::Failed);
        QVERIFY(d.error.contains(QStringLiteral("not found")));
        QVERIFY(!folio::ui::isSupportedDocument(QStringLiteral("notes.docx")));
        QVERIFY(folio::ui::isSupportedDocument(QStringLiteral("Chart.JPEG")));
    }

    void exportIsAtomic() {
        const QString dir = folio::test::scratchDir(QStringLiteral("export"));
        const QString path = dir + QStringLiteral("/chat.md");
        QList<folio::ui::ChatMessage> msgs(2);
        msgs[0].role = folio::ui::ChatMessage::Role::User;
        msgs[0].text = QStringLiteral("What was revenue?");
        msgs[0].time = QDateTime::currentDateTime();
        msgs[1].role = folio::ui::ChatMessage::Role::Assistant;
        msgs[1].text = QStringLiteral("$4.50 billion [p. 2]");
        msgs[1].time = QDateTime::currentDateTime();
        const QString md = folio::ui::transcriptToMarkdown(QStringLiteral("Report Q&A"), msgs);
        QVERIFY(md.startsWith(QStringLiteral("# Report Q&A\n")));
        QVERIFY(md.contains(QStringLiteral("## You (")) &&
                md.contains(QStringLiteral("$4.50 billion [p. 2]")));
        QCOMPARE(folio::ui::writeTextFileAtomic(path, md), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), md);
        f.close();
        // Writing into a folder that does not exist fails with a message; the old file stays.
        const QString err =
            folio::ui::writeTextFileAtomic(dir + QStringLiteral("/no/such/dir/x.md"), md);
        QVERIFY(!err.isEmpty());
        QVERIFY(QFile::exists(path));
        QCOMPARE(QDir(dir).entryList(QDir::Files).size(), 1); // no temp file left behind
    }
};

QTEST_MAIN(TestDocuments)
#include "test_documents.moc"
