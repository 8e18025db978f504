// Background reading survives kill -9 (issue #48 §8). A helper process (this program, run with
// --reading-child) reads a document prefix with the demo model, saving checkpoints as it goes;
// after its second checkpoint the test kills it with SIGKILL. A fresh reader over the same
// document-cache folder then resumes from the checkpoint: it prefills only what the checkpoint
// lacked, and the finished cache answers a question with the same tokens as a reading from
// scratch. A damaged checkpoint is ignored with a log line and the reading starts from 0.
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QProcess>
#include <QSignalSpy>
#include <QtTest>

#include "backend/document_reader.h"
#include "backend/engine_worker.h"
#include "core/documents/document_loader.h"
#include "doc_cache/cache_index.h"
#include "doc_cache/document_prefix.h"
#include "doc_cache/reading_checkpoints.h"
#include "support/test_support.h"

#include <csignal>
#include <cstdio>
#include <unistd.h>

using namespace folio;
using namespace folio::ui;

namespace {

const char* const kChildFlag = "--reading-child";
constexpr int kChildCheckpoints = 2; // the child is killed after this many
constexpr int kChunk = 128;          // prefill tokens per step: a cancel lands within one

QString demoModel() {
    return folio::test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
}

QString sampleReport() {
    return folio::test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
}

// The prefix both processes read: the sample report's first two pages (~2,000 tokens of the
// demo model's 4,096).
DocumentPrefix testPrefix() {
    Document doc = loadDocument(sampleReport());
    doc.pageTexts = doc.pageTexts.mid(0, 2);
    return documentPrefix(QStringLiteral("You answer questions about the documents."), {doc});
}

struct Loaded {
    std::shared_ptr<Engine> engine = std::make_shared<Engine>();
    ModelFacts facts;
    bool ok = false;
    Loaded() {
        ModelSpec spec;
        spec.gguf = demoModel().toStdString();
        spec.prefill_chunk = kChunk;
        spec.threads = 1; // slow enough that a checkpoint lands mid-way on any machine
        spec.cache.kv_type = KvType::F32;
        auto r = engine->load_sync(spec);
        ok = r.has_value();
        if (ok)
            facts = *r;
    }
    void setModel(DocumentReader& reader) const {
        reader.setModel(QString::fromStdString(facts.fingerprint),
                        QString::fromStdString(facts.name), QStringLiteral("f32"));
    }
};

QStringList logLines;
void captureLog(QtMsgType, const QMessageLogContext&, const QString& msg) {
    logLines << msg;
}

// The child: reads with a checkpoint after every prefill step and, at its kChildCheckpoints-th,
// says so on stdout and waits to be killed (the reading does not go on meanwhile: the next
// request is only submitted after this slot returns).
int runChild(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    registerEngineTypes();
    Loaded model;
    if (!model.ok)
        return 2;
    DocumentReader reader(model.engine, model.engine->create_session());
    reader.setCacheDir(QString::fromLocal8Bit(argv[2]));
    reader.setCheckpointInterval(0);
    int saved = 0;
    QObject::connect(&reader, &DocumentReader::checkpointSaved, [&saved](qint64 tokens) {
        if (++saved < kChildCheckpoints)
            return;
        std::printf("CHECKPOINT %lld\n", static_cast<long long>(tokens));
        std::fflush(stdout);
        for (;;)
            ::pause();
    });
    QObject::connect(&reader, &DocumentReader::finished, [] {
        std::printf("FINISHED\n"); // too few checkpoints: the test fails on it
        std::fflush(stdout);
        QCoreApplication::exit(3);
    });
    if (qEnvironmentVariableIsSet("FOLIO_TEST_TRACE"))
        QObject::connect(&reader, &DocumentReader::progress,
                         [](const QString&, qint64 done, qint64 total, double) {
                             std::fprintf(stderr, "progress %lld / %lld\n",
                                          static_cast<long long>(done),
                                          static_cast<long long>(total));
                         });
    model.setModel(reader);
    reader.read(testPrefix());
    return app.exec();
}

// Greedy tokens of a question after the prefix, on a new session of `engine` (with `snapshot`
// loaded into it first when given).
struct Answer {
    std::vector<int32_t> ids;
    int64_t reused = -1;
};
Answer answer(Engine& engine, const DocumentPrefix& prefix, const QString& snapshot) {
    const SessionId session = engine.create_session();
    if (!snapshot.isEmpty() && !engine.load_snapshot(session, snapshot.toStdString()))
        return {};
    Request r;
    r.messages.push_back(Message{"system", prefix.systemTurn.toStdString(), {}, {}});
    r.messages.push_back(Message{"user", "What was the revenue in 2023?", {}, {}});
    r.max_tokens = 12;
    r.sampling.temperature = 0;
    r.ignore_eos = true;
    Answer a;
    r.callbacks.on_token = [&a](std::string_view, int32_t id) { a.ids.push_back(id); };
    r.callbacks.on_done = [&a](const RequestStats& st) { a.reused = st.reused_tokens; };
    engine.wait(engine.submit(session, std::move(r)));
    engine.close_session(session);
    return a;
}

} // namespace

class TestReadingResume : public QObject {
    Q_OBJECT

    // Runs the child over `dir` and kills it with SIGKILL at its checkpoint; the checkpoint's
    // tokens (0 on failure).
    qint64 readAndKill(const QString& dir) {
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QCoreApplication::applicationFilePath(),
                    {QString::fromLatin1(kChildFlag), dir});
        if (!child.waitForStarted(10000))
            return 0;
        QByteArray out;
        QElapsedTimer clock;
        clock.start();
        while (!out.contains('\n') && clock.elapsed() < 120000 &&
               child.state() == QProcess::Running)
            if (child.waitForReadyRead(1000))
                out += child.readAllStandardOutput();
        const qint64 pid = child.processId();
        if (pid > 0 && child.state() == QProcess::Running)
            ::kill(pid_t(pid), SIGKILL); // no orderly save of any kind
        child.waitForFinished(10000);
        if (child.exitStatus() != QProcess::CrashExit || !out.startsWith("CHECKPOINT ")) {
            qWarning("child: %s (exit %d)", out.constData(), child.exitCode());
            return 0;
        }
        return out.mid(11).trimmed().toLongLong();
    }

private Q_SLOTS:
    void initTestCase() {
        registerEngineTypes();
        QVERIFY2(QFile::exists(demoModel()), "build folio_demo_model first");
        QVERIFY2(QFile::exists(sampleReport()), "build folio_samples first");
    }

    void resumesAfterKill() {
        const QString dir = folio::test::scratchDir(QStringLiteral("reading-resume"));
        const qint64 checkpoint = readAndKill(dir);
        QVERIFY2(checkpoint >= kChildCheckpoints * DocumentReader::kCheckpointTokens,
                 "no checkpoint");
        const DocumentPrefix prefix = testPrefix();

        Loaded model;
        QVERIFY(model.ok);
        const QString key =
            cacheKey(QString::fromStdString(model.facts.fingerprint), prefix.cacheIds(),
                     kPromptLayoutVersion, QStringLiteral("f32"));
        QString note;
        const auto saved = ReadingCheckpoints(dir).find(key, &note);
        QVERIFY2(saved, qPrintable(note));
        QCOMPARE(saved->tokens, checkpoint);
        QCOMPARE(saved->documents, 0);

        DocumentReader reader(model.engine, model.engine->create_session());
        reader.setCacheDir(dir);
        QSignalSpy resumed(&reader, &DocumentReader::resumed);
        QSignalSpy finished(&reader, &DocumentReader::finished);
        const int64_t before = model.engine->stats().prefill_tokens_total;
        model.setModel(reader);
        reader.read(prefix);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        const qint64 total = finished.first().at(0).toLongLong();
        QCOMPARE(finished.first().at(1).toBool(), false); // read (resumed), not loaded
        QCOMPARE(resumed.size(), 1);
        QCOMPARE(resumed.first().at(1).toLongLong(), checkpoint);
        QCOMPARE(resumed.first().at(2).toLongLong(), total); // one document: its request
        const int64_t prefilled = model.engine->stats().prefill_tokens_total - before;
        qInfo("prefix %lld tokens; checkpoint at %lld (%lld%%); prefilled after the kill %lld",
              static_cast<long long>(total), static_cast<long long>(checkpoint),
              static_cast<long long>(checkpoint * 100 / total), static_cast<long long>(prefilled));
        QVERIFY(checkpoint < total);
        QCOMPARE(prefilled, total - checkpoint); // exactly what the checkpoint lacked
        // The finished reading replaced its checkpoint by the document cache's snapshot.
        QVERIFY(!ReadingCheckpoints(dir).find(key, &note));
        QVERIFY(QDir(ReadingCheckpoints(dir).dir()).entryList({"*.fkv*"}, QDir::Files).isEmpty());
        const QList<CacheEntry> entries = CacheIndex(dir).entries();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.first().tokens, total);

        // The resumed cache answers as a cache read from scratch in one go does.
        const Answer resumedAnswer =
            answer(*model.engine, prefix, CacheIndex(dir).pathOf(entries.first()));
        QVERIFY2(resumedAnswer.reused >= total - 1,
                 qPrintable(QString::number(resumedAnswer.reused)));
        Loaded cold;
        QVERIFY(cold.ok);
        const Answer scratch = answer(*cold.engine, prefix, QString());
        QCOMPARE(scratch.reused, 0);
        QCOMPARE(int(scratch.ids.size()), 12);
        QCOMPARE(resumedAnswer.ids, scratch.ids);
    }

    void damagedCheckpointReadsFromZero() {
        const QString dir = folio::test::scratchDir(QStringLiteral("reading-resume-damaged"));
        const qint64 checkpoint = readAndKill(dir);
        QVERIFY(checkpoint > 0);
        const QStringList files =
            QDir(ReadingCheckpoints(dir).dir()).entryList({"*.fkv"}, QDir::Files);
        QCOMPARE(files.size(), 1); // the earlier checkpoints' snapshots are gone
        QFile f(ReadingCheckpoints(dir).dir() + QLatin1Char('/') + files.first());
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.size() > 4096);
        f.seek(f.size() / 2);
        f.write(QByteArray(64, '\x5a')); // the KV data's checksum no longer matches
        f.close();

        logLines.clear();
        const QtMessageHandler previous = qInstallMessageHandler(captureLog);
        Loaded model;
        QVERIFY(model.ok);
        DocumentReader reader(model.engine, model.engine->create_session());
        reader.setCacheDir(dir);
        QSignalSpy resumed(&reader, &DocumentReader::resumed);
        QSignalSpy finished(&reader, &DocumentReader::finished);
        const int64_t before = model.engine->stats().prefill_tokens_total;
        model.setModel(reader);
        reader.read(testPrefix());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        qInstallMessageHandler(previous);
        const qint64 total = finished.first().at(0).toLongLong();
        QCOMPARE(resumed.size(), 0);
        QCOMPARE(model.engine->stats().prefill_tokens_total - before, total); // from token 0
        QVERIFY2(logLines.join(QLatin1Char('\n'))
                     .contains(QStringLiteral("saved reading progress cannot be used")),
                 qPrintable(logLines.join(QLatin1Char('\n'))));
    }

    // The note is written after its snapshot, so a kill between the two, or during the
    // engine's write (its temporary file), leaves the previous checkpoint in use; the next
    // commit clears what such a kill left. A note that is not JSON is dropped with a reason.
    void checkpointFilesAreAtomic() {
        const QString dir = folio::test::scratchDir(QStringLiteral("reading-checkpoint-files"));
        ReadingCheckpoints cps(dir);
        const QString key = QStringLiteral("ab").repeated(32);
        auto write = [](const QString& path) {
            QFile f(path);
            return f.open(QIODevice::WriteOnly) && f.write("snapshot") == 8;
        };
        ReadingCheckpoint c;
        c.key = key;
        c.fingerprint = QStringLiteral("doc");
        c.tokens = 512;
        c.total = 2000;
        const QString first = cps.newSnapshotPath(key);
        QVERIFY(write(first));
        c.snapshotFile = QFileInfo(first).fileName();
        QCOMPARE(cps.commit(c), QString());
        // A kill after the next snapshot was written (and one during a write) but before its
        // note: the first checkpoint is still the one found.
        const QString orphan =
            cps.dir() + QLatin1Char('/') + key.left(32) + QStringLiteral("-9.fkv");
        const QString temp = orphan + QStringLiteral(".tmp-AbCdEf");
        QVERIFY(write(orphan) && write(temp));
        QString note;
        auto found = cps.find(key, &note);
        QVERIFY(found);
        QCOMPARE(found->tokens, 512);
        QCOMPARE(found->snapshotFile, c.snapshotFile);
        // The next checkpoint: the orphans and the first snapshot go.
        const QString second =
            cps.dir() + QLatin1Char('/') + key.left(32) + QStringLiteral("-10.fkv");
        QVERIFY(write(second));
        c.snapshotFile = QFileInfo(second).fileName();
        c.tokens = 1024;
        QCOMPARE(cps.commit(c), QString());
        QCOMPARE(QDir(cps.dir()).entryList({"*.fkv*"}, QDir::Files), QStringList{c.snapshotFile});
        QCOMPARE(cps.find(key, &note)->tokens, 1024);
        // A damaged note: ignored with a reason, and removed with its snapshot.
        QFile noteFile(cps.dir() + QLatin1Char('/') + key.left(32) + QStringLiteral(".json"));
        QVERIFY(noteFile.open(QIODevice::WriteOnly));
        noteFile.write("{\"version\": 1, \"key\": ");
        noteFile.close();
        QVERIFY(!cps.find(key, &note));
        QVERIFY2(note.contains(QStringLiteral(".json")), qPrintable(note));
        QVERIFY(QDir(cps.dir()).entryList(QDir::Files).isEmpty());
    }
};

int main(int argc, char** argv) {
    if (argc >= 3 && qstrcmp(argv[1], kChildFlag) == 0)
        return runChild(argc, argv);
    QGuiApplication app(argc, argv);
    TestReadingResume test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "test_reading_resume.moc"
