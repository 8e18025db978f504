// The OCR cache on disk (core/ocr/ocr_cache): an entry read back equals what was stored (text,
// confidence, languages, word boxes); a damaged entry (a changed byte, cut short, another format
// version, not an entry at all) is a miss with a message and is removed, so the page is read
// again; keys separate documents, pages and language settings; the fingerprint is the
// workbench's (SHA-256 of the file).
#include <QCryptographicHash>
#include <QtTest>

#include "core/ocr/ocr_cache.h"
#include "support/test_support.h"

using namespace folio::ocr;

namespace {

const QString kFp =
    QStringLiteral("9f2c4e0b7d1a5c3e8f6b2d4a1c7e9b3f5d8a2c6e4b1f7d3a9c5e2b8f4d6a1c3e");

PageOcr sampleOcr() {
    PageOcr o;
    o.text = QStringLiteral("Independent auditor's statement\n各区人民政府：\n");
    o.meanConfidence = 91.5f;
    o.languages = QStringLiteral("eng+chi_sim");
    o.dpi = 300;
    o.words = {{QStringLiteral("Independent"), QRectF(48.5, 40.25, 120, 18), 96.25f},
               {QStringLiteral("各区"), QRectF(48, 70, 24, 12), 88.5f}};
    return o;
}

void writeBytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(bytes), bytes.size());
}

QByteArray readBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestOcrCache : public QObject {
    Q_OBJECT
private slots:
    void roundTrip() {
        const OcrCache cache(folio::test::scratchDir(QStringLiteral("ocr-cache-rt")));
        QVERIFY(!cache.load(kFp, 3, QStringLiteral("auto")));
        QCOMPARE(cache.store(kFp, 3, QStringLiteral("auto"), sampleOcr()), QString());
        QString damaged;
        const std::optional<PageOcr> back = cache.load(kFp, 3, QStringLiteral("auto"), &damaged);
        QVERIFY(back);
        QVERIFY(damaged.isEmpty());
        QCOMPARE(*back, sampleOcr());
        // Other keys miss: page, language setting, document.
        QVERIFY(!cache.load(kFp, 4, QStringLiteral("auto")));
        QVERIFY(!cache.load(kFp, 3, QStringLiteral("eng")));
        QVERIFY(
            !cache.load(QString(kFp).replace(0, 1, QLatin1Char('0')), 3, QStringLiteral("auto")));
        // Overwriting leaves one file, no temp files.
        PageOcr changed = sampleOcr();
        changed.text = QStringLiteral("again");
        QCOMPARE(cache.store(kFp, 3, QStringLiteral("auto"), changed), QString());
        QCOMPARE(cache.load(kFp, 3, QStringLiteral("auto"))->text, QStringLiteral("again"));
        const QDir dir = QFileInfo(cache.entryPath(kFp, 3, QStringLiteral("auto"))).dir();
        QCOMPARE(dir.entryList(QDir::Files).size(), 1);
        // No fingerprint: nothing stored, nothing found.
        QVERIFY(!cache.store(QString(), 0, QStringLiteral("auto"), changed).isEmpty());
        QVERIFY(!cache.load(QString(), 0, QStringLiteral("auto")));
    }

    void damagedEntries_data() {
        QTest::addColumn<int>("damage");
        QTest::addColumn<QString>("why");
        QTest::newRow("changed byte") << 0 << QStringLiteral("checksum");
        QTest::newRow("cut short") << 1 << QStringLiteral("checksum");
        QTest::newRow("other version") << 2 << QStringLiteral("version");
        QTest::newRow("not an entry") << 3 << QStringLiteral("not an OCR cache entry");
        QTest::newRow("empty file") << 4 << QStringLiteral("no header");
        QTest::newRow("valid checksum, bad JSON") << 5 << QStringLiteral("invalid JSON");
    }
    void damagedEntries() {
        QFETCH(int, damage);
        QFETCH(QString, why);
        const OcrCache cache(folio::test::scratchDir(QStringLiteral("ocr-cache-damage")));
        QCOMPARE(cache.store(kFp, 0, QStringLiteral("auto"), sampleOcr()), QString());
        const QString path = cache.entryPath(kFp, 0, QStringLiteral("auto"));
        QByteArray bytes = readBytes(path);
        QVERIFY(bytes.startsWith("folio-ocr 1 "));
        switch (damage) {
        case 0:
            bytes[bytes.size() - 10] = char(bytes[bytes.size() - 10] ^ 0x20);
            break;
        case 1:
            bytes.chop(bytes.size() / 3);
            break;
        case 2:
            bytes.replace(0, 12, "folio-ocr 0 ");
            break;
        case 3:
            bytes = "{\"text\": \"hello\"}\n{}";
            break;
        case 4:
            bytes.clear();
            break;
        case 5: {
            const QByteArray body = "{\"text\": ";
            bytes = "folio-ocr 1 " +
                    QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex() + "\n" +
                    body;
            break;
        }
        }
        writeBytes(path, bytes);
        QString damaged;
        QVERIFY(!cache.load(kFp, 0, QStringLiteral("auto"), &damaged));
        QVERIFY2(damaged.contains(why), qPrintable(damaged));
        QVERIFY(damaged.contains(QLatin1String("read again")));
        QVERIFY(!QFileInfo::exists(path)); // removed: the next store writes a good one
        QCOMPARE(cache.store(kFp, 0, QStringLiteral("auto"), sampleOcr()), QString());
        QCOMPARE(*cache.load(kFp, 0, QStringLiteral("auto")), sampleOcr());
    }

    void fingerprintIsTheWorkbenchs() {
        const QString path =
            folio::test::scratchDir(QStringLiteral("ocr-cache-fp")) + QStringLiteral("/doc.pdf");
        writeBytes(path, QByteArray("%PDF-1.4 not much of a document"));
        QCOMPARE(documentFingerprint(path),
                 QString::fromLatin1(QCryptographicHash::hash("%PDF-1.4 not much of a document",
                                                              QCryptographicHash::Sha256)
                                         .toHex()));
        QCOMPARE(documentFingerprint(path + QStringLiteral(".absent")), QString());
        QVERIFY(defaultOcrCacheDir().endsWith(QLatin1String("/ocr")));
    }
};

QTEST_MAIN(TestOcrCache)
#include "test_ocr_cache.moc"
