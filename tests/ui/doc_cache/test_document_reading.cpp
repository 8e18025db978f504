// Background reading through EngineWorker with the demo model (issue #22 §4): a chat's document
// prefix is read on the reading session and saved in the document-cache folder; a new worker
// over the same folder (a restart) loads the snapshot and the first question reuses at least the
// prefix's tokens. A corrupt snapshot is read again with a log line; a cache folder that cannot
// be made gives a clear message and the question is still answered.
#include <QFile>
#include <QSignalSpy>
#include <QtTest>

#include "backend/engine_worker.h"
#include "chat/conversation_prompt.h"
#include "core/chat/chat_session.h"
#include "core/documents/document_loader.h"
#include "core/pipeline/prompt_builder.h"
#include "doc_cache/cache_index.h"
#include "doc_cache/document_prefix.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

QString demoModel() {
    return folio::test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
}

QString sampleReport() {
    return folio::test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
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

// A worker with the demo model loaded and `cacheDir` as its document-cache folder.
struct Worker {
    EngineWorker worker;
    TokenCounter counter;
    qint64 contextLimit = 0;

    explicit Worker(const QString& cacheDir) {
        worker.setDocumentCacheDir(cacheDir);
        QSignalSpy loaded(&worker, &EngineWorker::modelLoaded);
        QSignalSpy counters(&worker, &EngineWorker::counterChanged);
        LoadOptions o;
        o.model = demoModel();
        o.kvType = QStringLiteral("f32");
        worker.loadModel(o);
        // Both signals are queued from the engine thread; wait for both.
        [&] { QTRY_VERIFY_WITH_TIMEOUT(counters.size() == 1 && loaded.size() == 1, 60000); }();
        if (!loaded.isEmpty())
            contextLimit = loaded.first().first().value<ModelFactsQ>().contextLimit;
        if (!counters.isEmpty())
            counter = counters.first().first().value<TokenCounter>();
    }

    // Reads `prefix`; the arguments of readingFinished (tokens, fromCache, seconds).
    QList<QVariant> read(const DocumentPrefix& prefix) {
        QSignalSpy done(&worker, &EngineWorker::readingFinished);
        worker.readDocuments(prefix);
        [&] { QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 120000); }();
        return done.isEmpty() ? QList<QVariant>() : done.first();
    }

    // Asks `question` about the documents as the chat would (planPrompt); its statistics.
    RequestStatsQ ask(const ChatSession& chat, const Document& doc, const QString& question) {
        PromptInput input;
        input.chat = chat;
        input.question = question;
        input.documents = {doc};
        input.contextLimit = contextLimit;
        PageTokenCache pageCache;
        const PromptPlan plan = planPrompt(input, counter, pageCache);
        GenerationSettings s;
        s.maxTokens = 8;
        s.temperature = 0;
        QSignalSpy finished(&worker, &EngineWorker::finished);
        worker.submit(7, plan.turns, s, {});
        [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000); }();
        return finished.isEmpty() ? RequestStatsQ() : finished.first().at(1).value<RequestStatsQ>();
    }
};

} // namespace

class TestDocumentReading : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void readsInBackgroundAndReusesAfterRestart();
    void corruptSnapshotIsReadAgain();
    void unwritableCacheFolderStillAnswers();

private:
    DocumentPrefix prefix() const { return documentPrefix(chat_.systemPrompt, {doc_}); }
    // Positions of the system turn in the question's prompt: BOS + its text (deepseek-v3
    // template: "<bos>{system}<｜User｜>..."), counted with the model's tokenizer.
    qint64 prefixTokens(const TokenCounter& counter) const {
        return 1 + counter.text(prefix().systemTurn);
    }

    Document doc_;
    ChatSession chat_;
    QString cacheDir_;
};

void TestDocumentReading::initTestCase() {
    registerEngineTypes();
    QVERIFY2(QFile::exists(demoModel()), "build folio_demo_model first");
    QVERIFY2(QFile::exists(sampleReport()), "build folio_samples first");
    doc_ = loadDocument(sampleReport());
    QCOMPARE(doc_.state, Document::State::Ready);
    QVERIFY(!doc_.fingerprint.isEmpty());
    // The demo model holds 4,096 tokens: the report's first pages (~2,000 tokens) leave room
    // for the question.
    QVERIFY(doc_.pageTexts.size() >= 3);
    doc_.pageTexts = doc_.pageTexts.mid(0, 2);
    chat_ = ChatSession::create();
    cacheDir_ = folio::test::scratchDir(QStringLiteral("document-reading")) +
                QStringLiteral("/document-caches");
}

void TestDocumentReading::readsInBackgroundAndReusesAfterRestart() {
    const QString question = QStringLiteral("What was the revenue?");
    double coldTtft = 0;
    qint64 expected = 0;
    {
        // Cold: nothing read, nothing cached (another folder).
        Worker cold(folio::test::scratchDir(QStringLiteral("document-reading-cold")));
        QVERIFY(cold.counter.exact());
        expected = prefixTokens(cold.counter);
        QVERIFY2(expected > 500, qPrintable(QString::number(expected)));
        const RequestStatsQ st = cold.ask(chat_, doc_, question);
        QCOMPARE(st.reusedTokens, 0);
        coldTtft = st.ttftMs;
    }
    {
        Worker first(cacheDir_);
        QSignalSpy progress(&first.worker, &EngineWorker::readingProgress);
        QSignalSpy read(&first.worker, &EngineWorker::documentRead);
        const QList<QVariant> done = first.read(prefix());
        QCOMPARE(done.at(1).toBool(), false); // read, not loaded
        const qint64 tokens = done.at(0).toLongLong();
        QVERIFY2(tokens >= expected,
                 qPrintable(QStringLiteral("%1 < %2").arg(tokens).arg(expected)));
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(0).toString(), doc_.fingerprint);
        QCOMPARE(read.size(), 1);
        QCOMPARE(read.first().at(1).toLongLong(), tokens);
        const QList<CacheEntry> entries = CacheIndex(cacheDir_).entries();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.first().tokens, tokens);
        QCOMPARE(entries.first().documents, QStringList{doc_.title});
        QVERIFY(entries.first().bytes > 0);
    }
    // The restart: a new worker (new engine) over the same folder.
    Worker second(cacheDir_);
    const QList<QVariant> done = second.read(prefix());
    QCOMPARE(done.at(1).toBool(), true); // loaded from the snapshot
    const RequestStatsQ st = second.ask(chat_, doc_, question);
    QVERIFY2(
        st.reusedTokens >= expected,
        qPrintable(QStringLiteral("reused %1 < prefix %2").arg(st.reusedTokens).arg(expected)));
    QVERIFY(st.generatedTokens > 0);
    qInfo("document prefix %lld tokens; reused after restart %lld; TTFT cold %.1f ms, after "
          "restart %.1f ms",
          static_cast<long long>(expected), static_cast<long long>(st.reusedTokens), coldTtft,
          st.ttftMs);

    // A document changed since its cache: another key, read again.
    Document changed = doc_;
    changed.fingerprint = QStringLiteral("0123");
    changed.pageTexts[1] += QStringLiteral(" An added line.");
    const QList<QVariant> again = second.read(documentPrefix(chat_.systemPrompt, {changed}));
    QCOMPARE(again.at(1).toBool(), false);
    QCOMPARE(CacheIndex(cacheDir_).entries().size(), 2);
}

void TestDocumentReading::corruptSnapshotIsReadAgain() {
    const QString dir = folio::test::scratchDir(QStringLiteral("document-reading-corrupt"));
    QString file;
    {
        Worker first(dir);
        first.read(prefix());
        const QList<CacheEntry> entries = CacheIndex(dir).entries();
        QCOMPARE(entries.size(), 1);
        file = CacheIndex(dir).pathOf(entries.first());
    }
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadWrite));
    const qint64 size = f.size();
    QVERIFY(size > 4096);
    f.seek(size / 2);
    f.write(QByteArray(64, '\x5a')); // damage the KV data (the checksum no longer matches)
    f.close();
    LogCapture log;
    Worker second(dir);
    const QList<QVariant> done = second.read(prefix());
    QCOMPARE(done.at(1).toBool(), false); // read again
    QVERIFY(log.contains(QStringLiteral("cannot be used")));
    const QList<CacheEntry> entries = CacheIndex(dir).entries();
    QCOMPARE(entries.size(), 1); // the new snapshot replaced it
    // Read again in this process, the prefix reaches the chat's session through the engine's
    // prefix cache, which shares whole 64-token blocks (folio::CacheOptions::block_tokens): all
    // of them but the partial last one.
    const RequestStatsQ st = second.ask(chat_, doc_, QStringLiteral("Revenue?"));
    const qint64 wholeBlocks = prefixTokens(second.counter) / 64 * 64;
    QVERIFY2(st.reusedTokens >= wholeBlocks,
             qPrintable(QStringLiteral("reused %1 of the %2-token prefix")
                            .arg(st.reusedTokens)
                            .arg(prefixTokens(second.counter))));
}

void TestDocumentReading::unwritableCacheFolderStillAnswers() {
    const QString parent = folio::test::scratchDir(QStringLiteral("document-reading-full"));
    const QString notADir = parent + QStringLiteral("/document-caches");
    QFile file(notADir); // a file where the folder should be
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("x");
    file.close();
    Worker w(notADir);
    QSignalSpy messages(&w.worker, &EngineWorker::readingMessage);
    const QList<QVariant> done = w.read(prefix());
    QCOMPARE(done.at(1).toBool(), false);
    QCOMPARE(messages.size(), 1);
    const QString text = messages.first().first().toString();
    QVERIFY2(text.contains(notADir) && text.contains(QStringLiteral("Cannot create")),
             qPrintable(text));
    QCOMPARE(QFileInfo(notADir).size(), 1); // untouched
    const RequestStatsQ st = w.ask(chat_, doc_, QStringLiteral("Revenue?"));
    QVERIFY(st.generatedTokens > 0);
    // What was read stays in memory: the question reuses it (through the prefix cache, whole
    // blocks of 64 tokens).
    QVERIFY(st.reusedTokens >= prefixTokens(w.counter) / 64 * 64);
}

QTEST_MAIN(TestDocumentReading)
#include "test_document_reading.moc"
