// The document-cache index on real files: keys, least-recently-used eviction by the snapshot
// files' real sizes, a corrupt index, a missing snapshot, a folder that cannot be made.
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QThread>
#include <QTreeWidget>
#include <QtTest>

#include "doc_cache/cache_index.h"
#include "doc_cache/document_prefix.h"
#include "settings/document_caches_panel.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

// Writes `bytes` bytes as the snapshot of a new entry and records it.
CacheEntry addSnapshot(CacheIndex& index, const QString& key, qint64 bytes, qint64 budget) {
    QString error;
    const QString path = index.newFilePath(key, &error);
    [&] { QVERIFY2(!path.isEmpty(), qPrintable(error)); }();
    QFile f(path);
    [&] { QVERIFY(f.open(QIODevice::WriteOnly)); }();
    f.write(QByteArray(static_cast<qsizetype>(bytes), 'k'));
    f.close();
    CacheEntry e;
    e.key = key;
    e.fileName = QFileInfo(path).fileName();
    e.model = QStringLiteral("demo");
    e.documents = {QStringLiteral("report %1").arg(key)};
    e.tokens = bytes / 100;
    const QString addError = index.add(e, budget);
    [&] { QVERIFY2(addError.isEmpty(), qPrintable(addError)); }();
    QThread::msleep(5); // distinct last-used times
    return e;
}

QStringList keys(const QList<CacheEntry>& entries) {
    QStringList out;
    for (const CacheEntry& e : entries)
        out << e.key;
    return out;
}

struct LogCapture {
    static QStringList& lines() {
        static QStringList l;
        return l;
    }
    static void handler(QtMsgType, const QMessageLogContext&, const QString& msg) {
        lines() << msg;
    }
    QtMessageHandler previous;
    LogCapture() : previous(qInstallMessageHandler(handler)) { lines().clear(); }
    ~LogCapture() { qInstallMessageHandler(previous); }
    bool contains(const QString& s) const {
        for (const QString& l : lines())
            if (l.contains(s))
                return true;
        return false;
    }
};

} // namespace

class TestDocCacheIndex : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void keysNameModelDocumentsOrderLayoutAndKv();
    void lruEvictionUsesRealSizes();
    void entriesSurviveAReload();
    void corruptIndexIsDroppedWithALogLine();
    void missingSnapshotDropsItsEntry();
    void unwritableFolderGivesAClearMessage();
    void deleteOneAndAll();
    void prefixCutsAfterEachDocument();
    void settingsPanelListsDeletesAndBudgets();
    void deletedCachesGoWhenThePanelCloses();
};

void TestDocCacheIndex::keysNameModelDocumentsOrderLayoutAndKv() {
    const QStringList docs = {QStringLiteral("aa"), QStringLiteral("bb")};
    const QString k = cacheKey(QStringLiteral("m1"), docs, 1, QStringLiteral("f16"));
    QCOMPARE(k.size(), 64); // SHA-256 hex
    QCOMPARE(k, cacheKey(QStringLiteral("m1"), docs, 1, QStringLiteral("f16")));
    QVERIFY(k != cacheKey(QStringLiteral("m2"), docs, 1, QStringLiteral("f16")));
    QVERIFY(k != cacheKey(QStringLiteral("m1"), {QStringLiteral("bb"), QStringLiteral("aa")}, 1,
                          QStringLiteral("f16")));
    // A document changed since its cache: another fingerprint, another key.
    QVERIFY(k != cacheKey(QStringLiteral("m1"), {QStringLiteral("aa"), QStringLiteral("bc")}, 1,
                          QStringLiteral("f16")));
    QVERIFY(k != cacheKey(QStringLiteral("m1"), docs, 2, QStringLiteral("f16")));
    QVERIFY(k != cacheKey(QStringLiteral("m1"), docs, 1, QStringLiteral("q8_0")));
    // Fields do not run into each other: ("a", "b|c") differs from ("a|b", "c").
    QVERIFY(cacheKey(QStringLiteral("a"), {QStringLiteral("bc")}, 1, QStringLiteral("f16")) !=
            cacheKey(QStringLiteral("ab"), {QStringLiteral("c")}, 1, QStringLiteral("f16")));
}

void TestDocCacheIndex::lruEvictionUsesRealSizes() {
    const QString dir = folio::test::scratchDir(QStringLiteral("doc-cache-lru"));
    CacheIndex index(dir);
    const qint64 budget = 10000;
    addSnapshot(index, QStringLiteral("a"), 4000, budget);
    addSnapshot(index, QStringLiteral("b"), 3000, budget);
    addSnapshot(index, QStringLiteral("c"), 2000, budget);
    QCOMPARE(index.totalBytes(), 9000);
    QCOMPARE(keys(index.entries()), QStringList({"c", "b", "a"}));
    index.touch(QStringLiteral("a")); // a is now the most recently used
    QThread::msleep(5);
    QCOMPARE(keys(index.entries()), QStringList({"a", "c", "b"}));
    // 9000 + 2500 > 10000: the least recently used (b, 3000) goes; 8500 remain.
    addSnapshot(index, QStringLiteral("d"), 2500, budget);
    QCOMPARE(keys(index.entries()), QStringList({"d", "a", "c"}));
    QCOMPARE(index.totalBytes(), 8500);
    // b's file is gone from the folder too; three snapshots and the index remain.
    QCOMPARE(QDir(dir).entryList({QStringLiteral("*.fkv")}, QDir::Files).size(), 3);
    // A snapshot larger than the budget stays (it is the one just made) and evicts the rest.
    addSnapshot(index, QStringLiteral("e"), 12000, budget);
    QCOMPARE(keys(index.entries()), QStringList({"e"}));
    QCOMPARE(QDir(dir).entryList({QStringLiteral("*.fkv")}, QDir::Files).size(), 1);
}

void TestDocCacheIndex::entriesSurviveAReload() {
    const QString dir = folio::test::scratchDir(QStringLiteral("doc-cache-reload"));
    {
        CacheIndex index(dir);
        addSnapshot(index, QStringLiteral("k1"), 1234, 1 << 20);
    }
    CacheIndex again(dir);
    const CacheEntry* e = again.find(QStringLiteral("k1"));
    QVERIFY(e);
    QCOMPARE(e->bytes, 1234);
    QCOMPARE(e->tokens, 12);
    QCOMPARE(e->documents, QStringList{QStringLiteral("report k1")});
    QVERIFY(e->created.isValid());
    QVERIFY(!again.find(QStringLiteral("k2")));
}

void TestDocCacheIndex::corruptIndexIsDroppedWithALogLine() {
    const QString dir = folio::test::scratchDir(QStringLiteral("doc-cache-corrupt"));
    QString file;
    {
        CacheIndex index(dir);
        file = index.pathOf(addSnapshot(index, QStringLiteral("k1"), 100, 1 << 20));
    }
    QFile idx(dir + QStringLiteral("/index.json"));
    QVERIFY(idx.open(QIODevice::WriteOnly | QIODevice::Truncate));
    idx.write("{\"version\": 1, \"entries\": [ {\"key\": "); // cut short
    idx.close();
    LogCapture log;
    CacheIndex index(dir);
    QVERIFY(index.entries().isEmpty());
    QVERIFY(log.contains(QStringLiteral("corrupt")));
    QVERIFY(!QFile::exists(file)); // its snapshots cannot be named any more: removed
    // The folder works again.
    addSnapshot(index, QStringLiteral("k2"), 100, 1 << 20);
    QVERIFY(CacheIndex(dir).find(QStringLiteral("k2")));
}

void TestDocCacheIndex::missingSnapshotDropsItsEntry() {
    const QString dir = folio::test::scratchDir(QStringLiteral("doc-cache-missing"));
    CacheIndex index(dir);
    const CacheEntry e = addSnapshot(index, QStringLiteral("k1"), 100, 1 << 20);
    addSnapshot(index, QStringLiteral("k2"), 100, 1 << 20);
    QVERIFY(QFile::remove(index.pathOf(e)));
    LogCapture log;
    QVERIFY(!index.find(QStringLiteral("k1")));
    QVERIFY(index.find(QStringLiteral("k2")));
    QVERIFY(log.contains(QStringLiteral("missing")));
    // The index file no longer names it.
    QFile idx(index.indexPath());
    QVERIFY(idx.open(QIODevice::ReadOnly));
    QVERIFY(!idx.readAll().contains("\"k1\""));
}

void TestDocCacheIndex::unwritableFolderGivesAClearMessage() {
    const QString parent = folio::test::scratchDir(QStringLiteral("doc-cache-file"));
    const QString notADir = parent + QStringLiteral("/document-caches");
    QFile f(notADir); // a file where the folder should be
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("x");
    f.close();
    CacheIndex index(notADir);
    QString error;
    QVERIFY(index.newFilePath(QStringLiteral("k"), &error).isEmpty());
    QVERIFY2(error.contains(notADir) && error.contains(QStringLiteral("Cannot create")),
             qPrintable(error));
    QCOMPARE(QFileInfo(notADir).size(), 1); // nothing else touched
}

void TestDocCacheIndex::deleteOneAndAll() {
    const QString dir = folio::test::scratchDir(QStringLiteral("doc-cache-delete"));
    CacheIndex index(dir);
    addSnapshot(index, QStringLiteral("a"), 100, 1 << 20);
    const CacheEntry b = addSnapshot(index, QStringLiteral("b"), 200, 1 << 20);
    addSnapshot(index, QStringLiteral("c"), 300, 1 << 20);
    index.remove(QStringLiteral("b"));
    QCOMPARE(keys(index.entries()), QStringList({"c", "a"}));
    QVERIFY(!QFile::exists(index.pathOf(b)));
    QCOMPARE(CacheIndex(dir).totalBytes(), 400);
    index.removeAll();
    QVERIFY(index.entries().isEmpty());
    QVERIFY(QDir(dir).entryList({QStringLiteral("*.fkv")}, QDir::Files).isEmpty());
    QVERIFY(CacheIndex(dir).entries().isEmpty());
}

void TestDocCacheIndex::prefixCutsAfterEachDocument() {
    Document a, b, img;
    a.title = QStringLiteral("A");
    a.fingerprint = QStringLiteral("fa");
    a.state = Document::State::Ready;
    a.pageTexts = {QStringLiteral("alpha"), QStringLiteral("beta")};
    b = a;
    b.title = QStringLiteral("B");
    b.fingerprint = QStringLiteral("fb");
    img.kind = Document::Kind::Image;
    img.state = Document::State::Ready;
    const DocumentPrefix p = documentPrefix(QStringLiteral("SYS"), {a, img, b});
    QCOMPARE(p.fingerprints(), QStringList({"fa", "fb"})); // images go with the question
    QCOMPARE(p.documents.last().systemThrough, p.systemTurn);
    QVERIFY(p.systemTurn.startsWith(p.documents.first().systemThrough));
    QVERIFY(p.documents.first().systemThrough.startsWith(QStringLiteral("SYS")));
    QVERIFY(p.documents.first().systemThrough.contains(QStringLiteral("alpha")));
    QVERIFY(!p.documents.first().systemThrough.contains(QStringLiteral("[document: B]")));
}

void TestDocCacheIndex::settingsPanelListsDeletesAndBudgets() {
    QSettings().remove(QStringLiteral("documentCache/budgetBytes"));
    const QString dir = folio::test::scratchDir(QStringLiteral("doc-cache-panel"));
    {
        CacheIndex index(dir);
        addSnapshot(index, QStringLiteral("a"), 3 << 20, qint64(1) << 40);
        addSnapshot(index, QStringLiteral("b"), 1 << 20, qint64(1) << 40);
        addSnapshot(index, QStringLiteral("c"), 2 << 20, qint64(1) << 40);
    }
    DocumentCachesPanel panel(dir);
    auto* list = panel.findChild<QTreeWidget*>(QStringLiteral("documentCacheList"));
    QVERIFY(list);
    QCOMPARE(list->topLevelItemCount(), 3);
    // Most recently used first, with documents, model and size.
    QCOMPARE(list->topLevelItem(0)->text(0), QStringLiteral("report c"));
    QCOMPARE(list->topLevelItem(0)->text(1), QStringLiteral("demo"));
    QCOMPARE(list->topLevelItem(0)->text(2), QStringLiteral("2.00 MiB"));
    QCOMPARE(panel.findChild<QLabel*>(QStringLiteral("documentCacheTotal"))->text(),
             QStringLiteral("3 caches · 6.00 MiB of 4.00 GiB"));
    list->topLevelItem(1)->setSelected(true); // b
    panel.findChild<QPushButton*>(QStringLiteral("documentCacheDelete"))->click();
    QCOMPARE(keys(CacheIndex(dir).entries()), QStringList({"c", "a"}));
    QCOMPARE(list->topLevelItemCount(), 2);
    // Delete can be undone while the panel is open (issue #48 §13): b comes back in its place,
    // its snapshot whole; deleted again, it stays deleted.
    auto* undo = panel.findChild<QPushButton*>(QStringLiteral("documentCacheUndo"));
    QVERIFY(undo && !undo->isHidden());
    QCOMPARE(panel.findChild<QLabel*>(QStringLiteral("documentCacheDeleted"))->text(),
             QStringLiteral("Deleted 1 cache (1.00 MiB)."));
    undo->click();
    QCOMPARE(keys(CacheIndex(dir).entries()), QStringList({"c", "b", "a"}));
    QCOMPARE(QFileInfo(CacheIndex(dir).pathOf(CacheIndex(dir).entries()[1])).size(), 1 << 20);
    QVERIFY(undo->isHidden());
    list->topLevelItem(1)->setSelected(true); // b again
    panel.findChild<QPushButton*>(QStringLiteral("documentCacheDelete"))->click();
    QCOMPARE(keys(CacheIndex(dir).entries()), QStringList({"c", "a"}));
    // A budget below the total evicts the least recently used (a, 3 MiB) first.
    panel.setBudget(4 << 20);
    QCOMPARE(keys(CacheIndex(dir).entries()), QStringList({"c"}));
    QCOMPARE(CacheIndex::budgetSetting(), 4 << 20);
    panel.findChild<QPushButton*>(QStringLiteral("documentCacheDeleteAll"))->click();
    QVERIFY(CacheIndex(dir).entries().isEmpty());
    QCOMPARE(list->topLevelItemCount(), 0);
    QSettings().remove(QStringLiteral("documentCache/budgetBytes"));
    // Undo brings back everything Delete removed since the last Undo: b (deleted again) and c
    // (Delete all); a went to the budget, not to Delete.
    QCOMPARE(panel.findChild<QLabel*>(QStringLiteral("documentCacheDeleted"))->text(),
             QStringLiteral("Deleted 2 caches (3.00 MiB)."));
    undo->click();
    QCOMPARE(keys(CacheIndex(dir).entries()), QStringList({"c", "b"}));
}

void TestDocCacheIndex::deletedCachesGoWhenThePanelCloses() {
    const QString dir = folio::test::scratchDir(QStringLiteral("doc-cache-panel-close"));
    {
        CacheIndex index(dir);
        addSnapshot(index, QStringLiteral("a"), 1 << 20, qint64(1) << 40);
        addSnapshot(index, QStringLiteral("b"), 1 << 20, qint64(1) << 40);
    }
    {
        DocumentCachesPanel panel(dir);
        panel.deleteAll();
        QCOMPARE(QDir(CacheIndex(dir).deletedDir()).entryList(QDir::Files).size(), 2);
    }
    QVERIFY(!QDir(CacheIndex(dir).deletedDir()).exists());
    QVERIFY(QDir(dir).entryList({QStringLiteral("*.fkv")}, QDir::Files).isEmpty());
    QVERIFY(CacheIndex(dir).entries().isEmpty());
}

QTEST_MAIN(TestDocCacheIndex)
#include "test_doc_cache_index.moc"
