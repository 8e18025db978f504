// Document caches include scanned pages (issue #23): with the conformance Kimi-VL pair loaded,
// the read-ahead of the sample report puts its scanned page into the system turn as an image
// at its place, exactly as the question's prompt does; after a restart the snapshot is loaded
// and the question reuses the whole system turn, image rows included. The text-only prefix of
// before (no projector in the read-ahead) stops matching at the scanned page. The cache keys
// differ, so neither snapshot serves the other prompt.
#include <QSignalSpy>
#include <QtTest>

#include "backend/engine_worker.h"
#include "backend/request_builder.h"
#include "chat/conversation_prompt.h"
#include "core/chat/chat_session.h"
#include "core/documents/document_loader.h"
#include "core/pipeline/prompt_builder.h"
#include "doc_cache/cache_index.h"
#include "doc_cache/document_prefix.h"
#include "support/test_support.h"

using namespace folio;
using namespace folio::ui;

namespace {

// A worker with the Kimi-VL pair loaded, `cacheDir` its document-cache folder.
struct Worker {
    EngineWorker worker;
    TokenCounter counter;
    ModelFactsQ facts;

    Worker(const QString& conf, const QString& cacheDir, const QString& imageCacheDir) {
        worker.setDocumentCacheDir(cacheDir);
        QSignalSpy loaded(&worker, &EngineWorker::modelLoaded);
        QSignalSpy counters(&worker, &EngineWorker::counterChanged);
        LoadOptions o;
        o.model = conf + QStringLiteral("/models/ds2-vl-text-f32.gguf");
        o.mmproj = conf + QStringLiteral("/models/kimivl-mmproj-f32.gguf");
        o.kvType = QStringLiteral("f32");
        o.context = 4096;
        o.threads = 2;
        o.imageCacheDir = imageCacheDir;
        worker.loadModel(o);
        // Both signals are queued from the engine thread; wait for both.
        [&] { QTRY_VERIFY_WITH_TIMEOUT(counters.size() == 1 && loaded.size() == 1, 60000); }();
        if (!loaded.isEmpty())
            facts = loaded.first().first().value<ModelFactsQ>();
        if (!counters.isEmpty())
            counter = counters.first().first().value<TokenCounter>();
    }

    // Reads `prefix`; the arguments of readingFinished (tokens, fromCache, seconds).
    QList<QVariant> read(const DocumentPrefix& prefix) {
        QSignalSpy done(&worker, &EngineWorker::readingFinished);
        QSignalSpy messages(&worker, &EngineWorker::readingMessage);
        worker.readDocuments(prefix);
        [&] { QTRY_COMPARE_WITH_TIMEOUT(done.size() + messages.size(), 1, 240000); }();
        if (!messages.isEmpty())
            qWarning("%s", qPrintable(messages.first().first().toString()));
        return done.isEmpty() ? QList<QVariant>() : done.first();
    }

    RequestStatsQ ask(const PromptPlan& plan) {
        GenerationSettings s;
        s.maxTokens = 2;
        s.temperature = 0;
        QSignalSpy finished(&worker, &EngineWorker::finished);
        worker.submit(7, plan.turns, s, {});
        [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 240000); }();
        QTest::qWait(100); // the worker's questionEnded (queued after finished) resumes reading
        return finished.isEmpty() ? RequestStatsQ() : finished.first().at(1).value<RequestStatsQ>();
    }
};

} // namespace

class TestScannedPrefix : public QObject {
    Q_OBJECT
    QString conf_;
    Document report_;
    int scanned_ = -1; // 0-based
    ChatSession chat_;
    QString pageDir_;

    PrefixImageOptions images(const ModelFactsQ& facts) const {
        PrefixImageOptions o;
        o.readScannedPages = true;
        o.projector = facts.projectorFingerprint;
        o.dir = pageDir_;
        return o;
    }

    PromptPlan plan(const TokenCounter& counter) const {
        PromptInput in;
        in.chat = chat_;
        in.question = QStringLiteral("Who signed the auditor's statement?");
        in.documents = {report_};
        in.contextLimit = 4096;
        in.readScannedPages = true;
        in.pageImageDir = pageDir_;
        PageTokenCache cache;
        return planPrompt(in, counter, cache);
    }

private slots:
    void initTestCase() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        conf_ = dir;
        registerEngineTypes();
        const QString path =
            test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
        QVERIFY2(QFile::exists(path), qPrintable(path));
        report_ = loadDocument(path);
        QCOMPARE(report_.state, Document::State::Ready);
        const QList<int> scanned = pagesWithoutTextLayer(report_);
        QCOMPARE(scanned.size(), 1);
        scanned_ = scanned.first();
        // The tiny model holds 4,096 tokens: text pages cut to 100 characters (as
        // test_scanned_pages) so the report and the page's image fit with a question.
        for (QString& text : report_.pageTexts)
            text = text.left(100);
        chat_ = ChatSession::create();
        pageDir_ = test::scratchDir(QStringLiteral("scanned-prefix-pages"));
    }

    void readAheadIncludesScannedPages() {
        const QString cacheDir = test::scratchDir(QStringLiteral("scanned-prefix-caches"));
        const QString imageDir = test::scratchDir(QStringLiteral("scanned-prefix-embeddings"));
        DocumentPrefix withImages, textOnly;
        qint64 readWith = 0, readText = 0;
        {
            Worker first(conf_, cacheDir, imageDir);
            QVERIFY(first.counter.exact());
            QCOMPARE(first.facts.projectorFingerprint.size(), 32);
            withImages = documentPrefix(chat_.systemPrompt, {report_}, images(first.facts));
            textOnly = documentPrefix(chat_.systemPrompt, {report_}); // main's read-ahead
            // Exactly the question's system turn: same text, same image files.
            const PromptPlan p = plan(first.counter);
            QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
            QCOMPARE(withImages.systemTurn, p.turns.first().content);
            QCOMPARE(withImages.imageFiles(), p.turns.first().images);
            QCOMPARE(withImages.imageFiles().size(), 1);
            QVERIFY(withImages.systemTurn.contains(
                QStringLiteral("[page %1]\n<__media__>\n").arg(scanned_ + 1)));
            QVERIFY(textOnly.systemTurn != p.turns.first().content);
            QVERIFY(withImages.cacheIds() != textOnly.cacheIds());

            QFile::remove(withImages.imageFiles().first()); // the reader renders it itself
            const QList<QVariant> done = first.read(withImages);
            QVERIFY(!done.isEmpty());
            QCOMPARE(done.at(1).toBool(), false); // read, not loaded
            readWith = done.at(0).toLongLong();
            QVERIFY(QFile::exists(withImages.imageFiles().first()));
            const QList<QVariant> doneText = first.read(textOnly);
            QVERIFY(!doneText.isEmpty());
            readText = doneText.at(0).toLongLong();
            QCOMPARE(CacheIndex(cacheDir).entries().size(), 2); // two keys
            // The projector's output of the page went to the image cache folder.
            QCOMPARE(QDir(imageDir).entryList({QStringLiteral("*.emb")}).size(), 1);
        }

        // The system turn's positions counted independently: text tokens plus image rows.
        Engine counting;
        ModelSpec spec;
        spec.gguf = (conf_ + QStringLiteral("/models/ds2-vl-text-f32.gguf")).toStdString();
        spec.mmproj = (conf_ + QStringLiteral("/models/kimivl-mmproj-f32.gguf")).toStdString();
        spec.context = 4096;
        QVERIFY(counting.load_sync(spec));
        auto systemOnly = [](const QString& content, const QStringList& files) {
            Request r =
                buildRequest({ChatTurn{QStringLiteral("system"), content, files}}, {}, true, false);
            r.generation_prompt = false;
            return r;
        };
        auto sys =
            counting.count_tokens(systemOnly(withImages.systemTurn, withImages.imageFiles()));
        QVERIFY2(sys, sys ? "" : sys.error().to_string().c_str());
        // Up to the scanned page: where a text-only prefix parts from the question's prompt.
        const QString marker = QStringLiteral("[page %1]\n").arg(scanned_ + 1);
        const QString upTo = withImages.systemTurn.left(withImages.systemTurn.indexOf(marker));
        auto before = counting.count_tokens(systemOnly(upTo, {}));
        QVERIFY(before);
        QCOMPARE(readWith, *sys);

        RequestStatsQ st, mainStats;
        {
            // The restart: a new worker over the same folders loads the snapshot.
            Worker second(conf_, cacheDir, imageDir);
            const QList<QVariant> loaded = second.read(withImages);
            QVERIFY(!loaded.isEmpty());
            QCOMPARE(loaded.at(1).toBool(), true);
            QSignalSpy images(&second.worker, &EngineWorker::imageProgress);
            st = second.ask(plan(second.counter));
            // The page's projector rows come from the first run's image cache folder: ready at
            // once, one report (the chat's gauge shows "Encoding page images 1/1…").
            QCOMPARE(images.size(), 1);
            QCOMPARE(images.first().at(1).toInt(), 1);
            QCOMPARE(images.first().at(2).toInt(), 1);
        }
        {
            // Main's behaviour: the text-only snapshot under the same question (another restart,
            // so nothing the question above read is in the engine's prefix cache).
            Worker third(conf_, cacheDir, imageDir);
            const QList<QVariant> loaded = third.read(textOnly);
            QVERIFY(!loaded.isEmpty());
            QCOMPARE(loaded.at(1).toBool(), true);
            mainStats = third.ask(plan(third.counter));
        }
        qInfo("system turn %lld positions (%lld before the scanned page); read ahead %lld with "
              "the page's image, %lld text only; question %lld tokens reuses %lld (text-only "
              "prefix: %lld)",
              static_cast<long long>(*sys), static_cast<long long>(*before),
              static_cast<long long>(readWith), static_cast<long long>(readText),
              static_cast<long long>(st.promptTokens), static_cast<long long>(st.reusedTokens),
              static_cast<long long>(mainStats.reusedTokens));
        QCOMPARE(st.reusedTokens, *sys);            // the whole system turn, image rows too
        QVERIFY(st.promptTokens > st.reusedTokens); // and the question after it
        QCOMPARE(mainStats.promptTokens, st.promptTokens);
        // Text-only: reused up to the scanned page's marker and no further.
        QVERIFY(mainStats.reusedTokens >= *before - 2);
        QVERIFY(mainStats.reusedTokens <= *before + 16);
        QVERIFY(st.reusedTokens > mainStats.reusedTokens + 900); // past it: the page's image rows
    }
};

QTEST_MAIN(TestScannedPrefix)
#include "test_scanned_prefix.moc"
