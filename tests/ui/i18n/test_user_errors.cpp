// Error details in the user's language (issue #48 §14): every folio::Error the window shows is
// turned into a sentence chosen from its code and kind, looked up through tr() under the
// context "folio::ui::UserError", with the engine's English message kept on a "Details:" line.
// The About box's and the Devices pane's kernel line is built from the engine's CpuFeatures and
// translated the same way. The errors are the engine's own where a test can make them (a
// missing file, a truncated GGUF, an unreachable server); the others carry the engine's wording.
#include <QFile>
#include <QSet>
#include <QSignalSpy>
#include <QTranslator>
#include <QtTest>

#include "backend/engine_worker.h"
#include "backend/kernel_path_text.h"
#include "backend/remote_probe.h"
#include "backend/user_error.h"
#include "folio/model_info.h"
#include "folio/system_info.h"
#include "i18n/translations.h"
#include "support/test_support.h"

using namespace folio;
using namespace folio::ui;

namespace {

// Answers every lookup of the contexts it watches with "«source»" and remembers the lookups;
// installed last, it is asked before the zh_CN translation.
class RecordingTranslator : public QTranslator {
public:
    QSet<QString> contexts;
    QList<QPair<QString, QString>> lookups; // context, source

    bool isEmpty() const override { return false; }
    QString translate(const char* context, const char* source, const char* disambiguation,
                      int n) const override {
        Q_UNUSED(disambiguation)
        Q_UNUSED(n)
        const QString c = QString::fromLatin1(context);
        if (!contexts.contains(c))
            return QString();
        const_cast<RecordingTranslator*>(this)->lookups.append({c, QString::fromUtf8(source)});
        return QStringLiteral("«") + QString::fromUtf8(source) + QStringLiteral("»");
    }
};

const QString kContext = QStringLiteral("folio::ui::UserError");

Error engineError(Expected<ModelInfo> r) {
    return r ? Error{ErrorCode::Ok, {}} : r.error();
}

} // namespace

class TestUserErrors : public QObject {
    Q_OBJECT
    RecordingTranslator recorder_;

    // The source text of the one lookup under kContext that userErrorText(e)'s first line made.
    QString sentenceSource(const Error& e) {
        recorder_.lookups.clear();
        const QString shown = UserError::sentence(e);
        if (recorder_.lookups.size() != 1 || recorder_.lookups[0].first != kContext)
            return QString();
        const QString source = recorder_.lookups[0].second;
        return shown == QStringLiteral("«") + source + QStringLiteral("»") ? source : QString();
    }

private slots:
    void initTestCase() {
        // The real zh_CN translation is loaded too: the recorder is installed after it, so it
        // is asked first, and the strings it does not watch keep their Chinese.
        installTranslations(QCoreApplication::instance(),
                            QLocale(QLocale::Chinese, QLocale::China));
        recorder_.contexts = {kContext, QStringLiteral("folio::ui::KernelPathText")};
        QVERIFY(QCoreApplication::installTranslator(&recorder_));
    }

    // Each code, with a message that names no known kind, has a sentence of its own.
    void eachCodeHasItsSentence() {
        const ErrorCode codes[] = {
            ErrorCode::InvalidArgument, ErrorCode::NotFound,    ErrorCode::Io,
            ErrorCode::Format,          ErrorCode::Unsupported, ErrorCode::OutOfMemory,
            ErrorCode::Cancelled,       ErrorCode::Internal};
        QSet<QString> seen;
        for (ErrorCode c : codes) {
            const Error e{c, "blk.3.ffn_up.weight: rows 7 and 9 disagree"};
            const QString source = sentenceSource(e);
            QVERIFY2(!source.isEmpty(), error_code_name(c).data());
            QVERIFY2(!seen.contains(source), qPrintable(source));
            seen.insert(source);
        }
        QCOMPARE(seen.size(), 8);
    }

    // Each recognised kind has its own sentence, none of them a code's.
    void eachKindHasItsSentence() {
        const QString missing = folio::test::scratchDir(QStringLiteral("user-errors")) +
                                QStringLiteral("/no-such-model.gguf");
        const QString truncated = folio::test::scratchDir(QStringLiteral("user-errors")) +
                                  QStringLiteral("/truncated.gguf");
        {
            QFile f(truncated);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("GGUF\x03\x00\x00\x00\x01\x00", 10); // the tensor count is cut short
        }
        struct Case {
            ErrorKind kind;
            Error error;
        };
        const Case cases[] = {
            {ErrorKind::FileMissing, engineError(inspect_model(missing.toStdString()))},
            {ErrorKind::Truncated, engineError(inspect_model(truncated.toStdString()))},
            {ErrorKind::UnsupportedType,
             {ErrorCode::Unsupported, "m.gguf: tensor 'blk.0.ffn_up.weight' has type q1_0, "
                                      "which Folio cannot compute with yet"}},
            {ErrorKind::UnsupportedType,
             {ErrorCode::Format, "m.gguf: tensor info at byte 96: ggml type 41 (Q1_0) is not "
                                 "supported"}},
            {ErrorKind::OutOfMemory, {ErrorCode::OutOfMemory, "out of memory for a KV block"}},
            {ErrorKind::DiskFull,
             {ErrorCode::Io, "/cache/doc.fkv: write failed: No space left on device"}},
            {ErrorKind::PermissionDenied,
             {ErrorCode::Io, "/models/m.gguf: open: Permission denied"}},
            {ErrorKind::ContextTooSmall,
             {ErrorCode::InvalidArgument, "the prompt has 5000 tokens; the context holds 4096"}},
            {ErrorKind::Cancelled, {ErrorCode::Cancelled, "stopped"}},
            {ErrorKind::ServerUnreachable,
             {ErrorCode::Io, "cannot reach http://127.0.0.1:1/v1/models: Connection refused"}},
        };
        QSet<QString> codeSentences;
        for (ErrorCode c : {ErrorCode::InvalidArgument, ErrorCode::NotFound, ErrorCode::Io,
                            ErrorCode::Format, ErrorCode::Unsupported, ErrorCode::Internal})
            codeSentences.insert(sentenceSource(Error{c, "x"}));
        QHash<int, QString> byKind;
        for (const Case& c : cases) {
            QCOMPARE(int(errorKind(c.error)), int(c.kind));
            const QString source = sentenceSource(c.error);
            QVERIFY2(!source.isEmpty(), c.error.message.c_str());
            QVERIFY2(!codeSentences.contains(source) || c.kind == ErrorKind::Cancelled ||
                         c.kind == ErrorKind::OutOfMemory,
                     qPrintable(source));
            if (byKind.contains(int(c.kind)))
                QCOMPARE(source, byKind[int(c.kind)]); // the same kind, the same sentence
            byKind[int(c.kind)] = source;
        }
        QCOMPARE(QSet<QString>(byKind.cbegin(), byKind.cend()).size(), 9);
        // The engine's own words stay a plain code's: a format error that is not a cut.
        QCOMPARE(int(errorKind({ErrorCode::Format, "m.gguf: bad magic 'GGUX'"})),
                 int(ErrorKind::General));
    }

    // The shown text: the translated sentence, then the translated "Details:" label with the
    // engine's untranslated message, which names the file.
    void detailsKeepTheEnginesMessage() {
        const QString missing =
            folio::test::scratchDir(QStringLiteral("user-errors")) + QStringLiteral("/gone.gguf");
        const Error e = engineError(inspect_model(missing.toStdString()));
        QCOMPARE(int(e.code), int(ErrorCode::NotFound));
        recorder_.lookups.clear();
        const QStringList lines = userErrorText(e).split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].startsWith(QStringLiteral("«A file Folio needs is missing")));
        QCOMPARE(lines[1], QStringLiteral("«Details: %1»")
                               .arg(QString::fromStdString(
                                   e.to_string()))); // the recorder leaves %1 for arg()
        QVERIFY(lines[1].contains(QStringLiteral("gone.gguf")));
        QCOMPARE(recorder_.lookups.size(), 2);
        QCOMPARE(recorder_.lookups[1], qMakePair(kContext, QStringLiteral("Details: %1")));
        // No message: no details line.
        QCOMPARE(userErrorText(Error{ErrorCode::Cancelled, {}}).count(QLatin1Char('\n')), 0);
    }

    // The window's paths use it: a model that cannot be opened fails its load with the sentence
    // (not "not found: …" alone), and so does a server that is not there.
    void theWorkerAndTheProbeSayTheSentence() {
        EngineWorker worker;
        QSignalSpy failed(&worker, &EngineWorker::loadFailed);
        LoadOptions o;
        o.model =
            folio::test::scratchDir(QStringLiteral("user-errors")) + QStringLiteral("/absent.gguf");
        worker.loadModel(o);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 10000); // may come before loadModel returns
        const QString shown = failed.first().first().toString();
        QVERIFY2(shown.startsWith(QStringLiteral("«A file Folio needs is missing")),
                 qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("absent.gguf")), qPrintable(shown));

        BackendConfig server;
        server.kind = BackendConfig::Kind::Remote;
        server.url = QStringLiteral("http://127.0.0.1:1");
        const RemoteProbe p = probeRemote(server, true, 0);
        QVERIFY2(p.error.startsWith(QStringLiteral("«The server cannot be reached.")),
                 qPrintable(p.error));
    }

    // The kernel line: the engine's three paths, each its own tr() sentence; in English the
    // engine's words.
    void kernelLineIsTranslated() {
        CpuFeatures portable;
        CpuFeatures avx2 = portable;
        avx2.avx2 = avx2.fma = avx2.f16c = true;
        CpuFeatures vnni = avx2;
        vnni.avx512f = vnni.avx512vl = vnni.avx512vnni = true;
        QSet<QString> sources;
        for (const CpuFeatures& f : {portable, avx2, vnni}) {
            recorder_.lookups.clear();
            const QString shown = KernelPathText::describe(f);
            QCOMPARE(recorder_.lookups.size(), 1);
            QCOMPARE(recorder_.lookups[0].first, QStringLiteral("folio::ui::KernelPathText"));
            sources.insert(recorder_.lookups[0].second);
            QVERIFY(shown.startsWith(QStringLiteral("«")));
        }
        QCOMPARE(sources.size(), 3);
        // Without the recorder: the zh_CN translation, with the engine's feature names in it.
        QCoreApplication::removeTranslator(&recorder_);
        QCOMPARE(KernelPathText::describe(portable),
                 QStringLiteral("可移植标量内核（无 AVX2/FMA/F16C）"));
        QVERIFY(KernelPathText::describe(vnni).startsWith(QStringLiteral("x86-64 ")));
        QVERIFY(KernelPathText::describe(vnni).contains(QStringLiteral("内核")));
        // In English (installTranslations replaces Folio's translators): the engine's words.
        installTranslations(QCoreApplication::instance(),
                            QLocale(QLocale::English, QLocale::UnitedStates));
        for (const CpuFeatures& f : {portable, avx2, vnni})
            QCOMPARE(KernelPathText::describe(f), QString::fromStdString(describe_kernel_path(f)));
        installTranslations(QCoreApplication::instance(),
                            QLocale(QLocale::Chinese, QLocale::China));
        QVERIFY(QCoreApplication::installTranslator(&recorder_));
    }
};

QTEST_GUILESS_MAIN(TestUserErrors)
#include "test_user_errors.moc"
