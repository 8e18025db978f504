// The workbench on a remote backend (issue #12), over real HTTP on loopback: our own
// `folio-cli serve` on the generated demo model; an EngineWorker in remote mode streams the same
// greedy answer as an embedded EngineWorker on the same file; Stop works; a server killed
// mid-stream gives one clean failure and keeps the partial text (marked in the chat); the main
// window switches between the engine and the server without a restart, and its Devices pane
// says what the server reports; the backend settings round trip through QSettings and the
// dialog lists the server's models off the GUI thread; the API key never reaches a log line.
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTextBrowser>
#include <QThread>
#include <QTreeWidget>
#include <QtTest>

#include "backend/engine_worker.h"
#include "chat/chat_pane.h"
#include "chat/transcript_view.h"
#include "devices/devices_pane.h"
#include "devices/server_panel.h"
#include "main_window.h"
#include "settings/app_settings.h"
#include "settings/settings_dialog.h"
#include "support/server_process.h"
#include "support/test_support.h"

#include <functional>
#include <mutex>

using namespace folio::ui;

namespace {

const QString kKey = QStringLiteral("sk-test-7f3c9a");

QString demoModel() {
    return folio::test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
}

// Every message Qt logs, to check the API key never appears in one.
std::mutex logMutex;
QStringList logLines;
void recordLog(QtMsgType, const QMessageLogContext&, const QString& message) {
    std::lock_guard lk(logMutex);
    logLines << message;
    fprintf(stderr, "%s\n", qPrintable(message));
}

struct Answer {
    QString tokens; // concatenated tokenArrived text
    RequestStatsQ stats;
    QStringList errors;
    int finishedCount = 0;
};

// An EngineWorker on its own thread, as the main window runs it; its signals are collected on
// the test's thread (queued).
class WorkerHarness : public QObject {
public:
    WorkerHarness() {
        worker_ = new EngineWorker;
        worker_->moveToThread(&thread_);
        connect(worker_, &EngineWorker::tokenArrived, this,
                [this](qint64 id, const QString& t) { answers[id].tokens += t; });
        connect(worker_, &EngineWorker::failed, this,
                [this](qint64 id, const QString& m) { answers[id].errors << m; });
        connect(worker_, &EngineWorker::finished, this, [this](qint64 id, const RequestStatsQ& s) {
            answers[id].stats = s;
            ++answers[id].finishedCount;
        });
        connect(worker_, &EngineWorker::modelLoaded, this, [this](const ModelFactsQ& f) {
            facts = f;
            ++loaded;
        });
        connect(worker_, &EngineWorker::loadFailed, this,
                [this](const QString& m) { loadError = m; });
        thread_.start();
    }
    ~WorkerHarness() override {
        run([](EngineWorker* w) { delete w; });
        thread_.quit();
        thread_.wait();
    }
    void run(const std::function<void(EngineWorker*)>& f) {
        QMetaObject::invokeMethod(
            worker_, [this, f] { f(worker_); }, Qt::BlockingQueuedConnection);
    }
    void submit(qint64 id, const QList<ChatTurn>& turns, const GenerationSettings& s) {
        run([=](EngineWorker* w) { w->submit(id, turns, s, {}); });
    }

    QHash<qint64, Answer> answers;
    ModelFactsQ facts;
    int loaded = 0;
    QString loadError;

private:
    QThread thread_;
    EngineWorker* worker_ = nullptr;
};

QList<ChatTurn> conversation() {
    return {{QStringLiteral("system"), QStringLiteral("You are a careful analyst."), {}},
            {QStringLiteral("user"), QStringLiteral("Summarise the revenue trend."), {}}};
}

GenerationSettings greedy(int maxTokens, bool ignoreEos) {
    GenerationSettings s;
    s.temperature = 0;
    s.topK = 0;
    s.topP = 1;
    s.minP = 0;
    s.maxTokens = maxTokens;
    s.promptLookup = false;
    s.ignoreEos = ignoreEos;
    return s;
}

BackendConfig remote(const folio::test::ServerProcess& server, const QString& key = kKey,
                     const QString& model = {}) {
    BackendConfig c;
    c.kind = BackendConfig::Kind::Remote;
    c.url = QString::fromStdString(const_cast<folio::test::ServerProcess&>(server).url());
    c.apiKey = key;
    c.model = model;
    return c;
}

} // namespace

class TestWorkbenchRemote : public QObject {
    Q_OBJECT
    folio::test::ServerProcess server_;

    bool startServer(folio::test::ServerProcess& s) {
        QString error;
        const bool ok = s.start(
            demoModel(),
            {QStringLiteral("--api-key"), kKey, QStringLiteral("--alias"), QStringLiteral("demo")},
            &error);
        if (!ok)
            qWarning("%s", qPrintable(error));
        return ok;
    }

private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("workbench-remote-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_workbench_remote"));
        QVERIFY2(QFile::exists(demoModel()), "no demo model");
        registerEngineTypes();
        qInstallMessageHandler(recordLog);
        QVERIFY(startServer(server_));
    }

    void cleanupTestCase() {
        qInstallMessageHandler(nullptr);
        std::lock_guard lk(logMutex);
        for (const QString& line : logLines)
            QVERIFY2(!line.contains(kKey), "the API key was logged");
    }

    // The same greedy answer from the server as from the embedded engine on the same file.
    void remoteStreamEqualsEmbeddedAnswer() {
        WorkerHarness embedded;
        LoadOptions load;
        load.model = demoModel();
        load.threads = 1;
        embedded.run([load](EngineWorker* w) { w->loadModel(load); });
        QTRY_COMPARE_WITH_TIMEOUT(embedded.loaded, 1, 30000);
        embedded.submit(1, conversation(), greedy(48, false));
        QTRY_COMPARE_WITH_TIMEOUT(embedded.answers[1].finishedCount, 1, 30000);
        const Answer local = embedded.answers[1];
        QVERIFY(local.errors.isEmpty());
        QVERIFY(!local.tokens.isEmpty());

        WorkerHarness net;
        const BackendConfig config = remote(server_); // no model named: the only one served
        net.run([config](EngineWorker* w) { w->useBackend(config); });
        QTRY_COMPARE_WITH_TIMEOUT(net.loaded, 1, 30000);
        QVERIFY(net.facts.remote);
        QCOMPARE(net.facts.name, QStringLiteral("demo"));
        QCOMPARE(net.facts.contextLimit, qint64(4096));
        bool isRemote = false;
        net.run([&isRemote](EngineWorker* w) { isRemote = w->isRemote(); });
        QVERIFY(isRemote);
        net.submit(7, conversation(), greedy(48, false));
        QTRY_COMPARE_WITH_TIMEOUT(net.answers[7].finishedCount, 1, 30000);
        const Answer answer = net.answers[7];
        QVERIFY2(answer.errors.isEmpty(), qPrintable(answer.errors.join(QLatin1Char('\n'))));
        QCOMPARE(answer.tokens, local.tokens);
        QCOMPARE(answer.stats.text, local.tokens);
        QCOMPARE(answer.stats.stopReason, local.stats.stopReason);
        QCOMPARE(answer.stats.generatedTokens, local.stats.generatedTokens);
        QCOMPARE(answer.stats.promptTokens, local.stats.promptTokens);
        QVERIFY(answer.stats.ttftMs > 0);
    }

    // A turn with a data source goes through the tool loop on both backends, and the tool
    // declaration reaches the engine's chat template locally and the server's over HTTP (the
    // prompt grows by it). The demo model's words are random, so no call is expected from it;
    // the calls themselves are tested with a scripted model in test_workbench_tools. Both
    // backends render the declaration in one form (canonical_tools_json: compact, keys sorted),
    // so the prompts have the same length and the greedy answers are the same.
    void toolTurnRunsOnTheEngineAndOnTheServer() {
        const QString csv = folio::test::scratchDir(QStringLiteral("workbench-remote-csv")) +
                            QStringLiteral("/sales.csv");
        {
            QFile f(csv);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("year,amount\n2023,150.25\n2024,190\n");
        }
        const GenerationSettings s = greedy(32, false);
        const QList<ChatTurn> turns = conversation();
        WorkerHarness embedded;
        LoadOptions load;
        load.model = demoModel();
        load.threads = 1;
        embedded.run([load](EngineWorker* w) { w->loadModel(load); });
        QTRY_COMPARE_WITH_TIMEOUT(embedded.loaded, 1, 30000);
        WorkerHarness net;
        const BackendConfig config = remote(server_);
        net.run([config](EngineWorker* w) { w->useBackend(config); });
        QTRY_COMPARE_WITH_TIMEOUT(net.loaded, 1, 30000);

        for (WorkerHarness* h : {&embedded, &net}) {
            h->run([&](EngineWorker* w) { w->submit(11, turns, s, {csv}); });
            h->submit(12, turns, s); // the same turn without tools
            QTRY_COMPARE_WITH_TIMEOUT(h->answers[11].finishedCount, 1, 30000);
            QTRY_COMPARE_WITH_TIMEOUT(h->answers[12].finishedCount, 1, 30000);
            const Answer withTools = h->answers[11];
            QVERIFY2(withTools.errors.isEmpty(),
                     qPrintable(withTools.errors.join(QLatin1Char('\n'))));
            QVERIFY(!withTools.tokens.isEmpty());
            QCOMPARE(withTools.stats.text, withTools.tokens); // no call: nothing was reset
            QVERIFY2(withTools.stats.promptTokens > h->answers[12].stats.promptTokens + 50,
                     qPrintable(QStringLiteral("%1 vs %2")
                                    .arg(withTools.stats.promptTokens)
                                    .arg(h->answers[12].stats.promptTokens)));
        }
        const Answer& a = embedded.answers[11];
        const Answer& b = net.answers[11];
        qInfo(
            "tool turn: prompt %lld tokens embedded, %lld through folio-cli serve (without tools: "
            "%lld, %lld)",
            a.stats.promptTokens, b.stats.promptTokens, embedded.answers[12].stats.promptTokens,
            net.answers[12].stats.promptTokens);
        QCOMPARE(b.stats.promptTokens, a.stats.promptTokens);
        QCOMPARE(b.tokens, a.tokens);
    }

    // Images of the Documents pane go with the question to a server that has a vision
    // projector (folio-cli serve --mmproj; as base64 data URLs) and give the embedded answer.
    void imageQuestionThroughTheServerMatchesTheEngine() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const QString text = dir + QStringLiteral("/models/ds2-vl-text-f32.gguf");
        const QString mmproj = dir + QStringLiteral("/models/kimivl-mmproj-f32.gguf");
        const QString chart = dir + QStringLiteral("/models/chart.png");
        folio::test::ServerProcess vl;
        QString err;
        QVERIFY2(vl.start(text, {QStringLiteral("--mmproj"), mmproj}, &err), qPrintable(err));
        WorkerHarness embedded;
        LoadOptions load;
        load.model = text;
        load.mmproj = mmproj;
        load.threads = 1;
        embedded.run([load](EngineWorker* w) { w->loadModel(load); });
        QTRY_COMPARE_WITH_TIMEOUT(embedded.loaded, 1, 30000);
        WorkerHarness net;
        const BackendConfig config = remote(vl, QString());
        net.run([config](EngineWorker* w) { w->useBackend(config); });
        QTRY_COMPARE_WITH_TIMEOUT(net.loaded, 1, 30000);
        QVERIFY(net.facts.acceptsImages);

        QList<ChatTurn> withImage = conversation();
        withImage.last().images = {chart};
        const GenerationSettings s = greedy(12, true);
        for (WorkerHarness* h : {&embedded, &net}) {
            h->submit(21, withImage, s);
            h->submit(22, conversation(), s);
            QTRY_COMPARE_WITH_TIMEOUT(h->answers[21].finishedCount, 1, 60000);
            QTRY_COMPARE_WITH_TIMEOUT(h->answers[22].finishedCount, 1, 60000);
            QVERIFY2(h->answers[21].errors.isEmpty(),
                     qPrintable(h->answers[21].errors.join(QLatin1Char('\n'))));
        }
        const Answer& a = embedded.answers[21];
        const Answer& b = net.answers[21];
        qInfo("image question: prompt %lld tokens embedded, %lld through folio-cli serve (without "
              "the image: %lld, %lld)",
              a.stats.promptTokens, b.stats.promptTokens, embedded.answers[22].stats.promptTokens,
              net.answers[22].stats.promptTokens);
        QCOMPARE(b.stats.promptTokens, a.stats.promptTokens);
        QVERIFY(b.stats.promptTokens > net.answers[22].stats.promptTokens + 10); // image tokens
        QCOMPARE(b.stats.generatedTokens, qint64(12));
        QCOMPARE(b.tokens, a.tokens);
    }

    void wrongKeyOrModelIsAClearLoadFailure() {
        WorkerHarness net;
        const BackendConfig badKey = remote(server_, QStringLiteral("not-the-key"));
        net.run([badKey](EngineWorker* w) { w->useBackend(badKey); });
        QTRY_VERIFY_WITH_TIMEOUT(!net.loadError.isEmpty(), 30000);
        QVERIFY2(net.loadError.contains(QStringLiteral("401")), qPrintable(net.loadError));
        QVERIFY(!net.loadError.contains(QStringLiteral("not-the-key")));
        net.loadError.clear();
        const BackendConfig badModel = remote(server_, kKey, QStringLiteral("kimi-k2"));
        net.run([badModel](EngineWorker* w) { w->useBackend(badModel); });
        QTRY_VERIFY_WITH_TIMEOUT(!net.loadError.isEmpty(), 30000);
        QVERIFY2(net.loadError.contains(QStringLiteral("\"kimi-k2\"")) &&
                     net.loadError.contains(QStringLiteral("demo")),
                 qPrintable(net.loadError));
        QCOMPARE(net.loaded, 0);
    }

    void stopEndsTheRemoteStream() {
        WorkerHarness net;
        const BackendConfig config = remote(server_, kKey, QStringLiteral("demo"));
        net.run([config](EngineWorker* w) { w->useBackend(config); });
        QTRY_COMPARE_WITH_TIMEOUT(net.loaded, 1, 30000);
        net.submit(3, conversation(), greedy(4000, true));
        QTRY_VERIFY_WITH_TIMEOUT(!net.answers[3].tokens.isEmpty(), 30000);
        QElapsedTimer t;
        t.start();
        net.run([](EngineWorker* w) { w->cancel(3); });
        QTRY_COMPARE_WITH_TIMEOUT(net.answers[3].finishedCount, 1, 10000);
        qInfo("stop: finished %lld ms after cancel", qint64(t.elapsed()));
        const Answer a = net.answers[3];
        QCOMPARE(a.stats.stopReason, QStringLiteral("cancelled"));
        QVERIFY(a.errors.isEmpty());
        QVERIFY2(a.stats.generatedTokens < 4000,
                 qPrintable(QString::number(a.stats.generatedTokens)));
        QCOMPARE(a.stats.text, a.tokens);
        // The server still answers the next question.
        net.submit(4, conversation(), greedy(8, true));
        QTRY_COMPARE_WITH_TIMEOUT(net.answers[4].finishedCount, 1, 30000);
        QCOMPARE(net.answers[4].stats.stopReason, QStringLiteral("length"));
    }

    void serverKilledMidStreamKeepsThePartialAnswer() {
        folio::test::ServerProcess doomed;
        QVERIFY(startServer(doomed));
        WorkerHarness net;
        const BackendConfig config = remote(doomed);
        net.run([config](EngineWorker* w) { w->useBackend(config); });
        QTRY_COMPARE_WITH_TIMEOUT(net.loaded, 1, 30000);
        net.submit(5, conversation(), greedy(4000, true));
        QTRY_VERIFY_WITH_TIMEOUT(!net.answers[5].tokens.isEmpty(), 30000);
        doomed.kill();
        QTRY_COMPARE_WITH_TIMEOUT(net.answers[5].finishedCount, 1, 30000);
        QTest::qWait(200); // nothing else may arrive for it
        const Answer a = net.answers[5];
        QCOMPARE(a.finishedCount, 1);
        QCOMPARE(a.errors.size(), 1);
        QVERIFY2(a.errors.first().contains(QStringLiteral("lost")), qPrintable(a.errors.first()));
        QCOMPARE(a.stats.stopReason, QStringLiteral("error"));
        QVERIFY(!a.stats.text.isEmpty());
        QCOMPARE(a.stats.text, a.tokens);
        QVERIFY(a.stats.generatedTokens < 4000);
    }

    // The main window: engine → server → engine without a restart; the Devices pane in remote
    // mode; a dropped stream stays in the chat, marked.
    void mainWindowSwitchesBackendsAndMarksADroppedAnswer() {
        folio::test::ServerProcess doomed;
        QVERIFY(startServer(doomed));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openModel(demoModel());
        QTRY_VERIFY_WITH_TIMEOUT(w.modelReady(), 30000);
        QVERIFY(!w.devicesPane()->isRemoteMode());
        QSignalSpy finished(&w, &MainWindow::answerFinished);
        w.chatPane()->setChatSettings(QStringLiteral("Be brief."), greedy(16, true));
        w.ask(QStringLiteral("First question"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        const QString embeddedAnswer = w.chatPane()->messages().last().text;
        QVERIFY(!embeddedAnswer.isEmpty());

        AppSettings s = AppSettings::load();
        s.backend = BackendConfig::Kind::Remote;
        s.remoteUrl = QString::fromStdString(doomed.url());
        s.remoteApiKey = kKey;
        s.remoteModel = QStringLiteral("demo");
        s.save();
        w.loadSavedModel(); // as at start, or after Settings → OK
        QVERIFY(!w.modelReady());
        QTRY_VERIFY_WITH_TIMEOUT(w.modelReady(), 30000);
        QVERIFY(w.devicesPane()->isRemoteMode());
        ServerPanel* panel = w.devicesPane()->serverPanel();
        QVERIFY(panel->isVisible());
        QVERIFY(panel->noteText().contains(
            QStringLiteral("The server does not report memory or cache figures")));
        QVERIFY(panel->statusText().contains(QString::fromStdString(doomed.url())));
        QVERIFY(!panel->statusText().contains(kKey));
        auto* label = w.findChild<QLabel*>(QStringLiteral("statusModel"));
        QVERIFY(label->text().startsWith(QStringLiteral("Remote: demo")));

        // A complete remote answer, then one cut off by the server's death.
        w.ask(QStringLiteral("Second question"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 30000);
        QCOMPARE(finished.last().at(0).toString(), QStringLiteral("length"));
        QCOMPARE(panel->answers()->topLevelItemCount(), 1);
        QVERIFY(panel->answers()->topLevelItem(0)->text(1).endsWith(QStringLiteral(" ms")));
        QVERIFY(panel->answers()->topLevelItem(0)->text(2).endsWith(QStringLiteral(" t/s")));
        QTRY_VERIFY_WITH_TIMEOUT(panel->statusText().contains(QStringLiteral("last answer")), 5000);

        w.chatPane()->setChatSettings(QStringLiteral("Be brief."), greedy(4000, true));
        QSignalSpy streamed(w.chatPane(), &ChatPane::streamed);
        w.ask(QStringLiteral("Third question"));
        QTRY_VERIFY_WITH_TIMEOUT(streamed.size() > 0, 30000);
        doomed.kill();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 3, 30000);
        QCOMPARE(finished.last().at(0).toString(), QStringLiteral("error"));
        const ChatMessage last = w.chatPane()->messages().last();
        QCOMPARE(last.role, ChatMessage::Role::Assistant);
        QVERIFY(!last.text.isEmpty());
        QVERIFY2(last.interrupted.contains(QStringLiteral("lost")), qPrintable(last.interrupted));
        w.chatPane()->transcript()->flush();
        QVERIFY(w.chatPane()->transcript()->toPlainText().contains(
            QStringLiteral("[answer interrupted: ")));
        if (const QString shots = qEnvironmentVariable("FOLIO_SHOTS_DIR"); !shots.isEmpty())
            QVERIFY(w.grab().save(shots + QStringLiteral("/remote-interrupted.png")));

        // Back to the engine, still without a restart.
        s.backend = BackendConfig::Kind::Embedded;
        s.save();
        w.useBackend(s.backendConfig());
        w.openModel(demoModel());
        QTRY_VERIFY_WITH_TIMEOUT(label->text().startsWith(QStringLiteral("Model: ")), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(w.modelReady(), 30000);
        QVERIFY(!w.devicesPane()->isRemoteMode());
        w.chatPane()->setChatSettings(QStringLiteral("Be brief."), greedy(16, true));
        w.ask(QStringLiteral("First question"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 4, 30000);
        QCOMPARE(finished.last().at(0).toString(), QStringLiteral("length"));
        QCOMPARE(AppSettings::load().backend, BackendConfig::Kind::Embedded);
        w.chatPane()->waitForSaves();
    }

    void settingsRoundTripAndListModels() {
        AppSettings s;
        s.backend = BackendConfig::Kind::Remote;
        s.remoteUrl = QString::fromStdString(server_.url()) + QStringLiteral("/v1");
        s.remoteApiKey = kKey;
        s.remoteModel = QStringLiteral("demo");
        s.save();
        {
            QSettings raw;
            QCOMPARE(raw.value(QStringLiteral("backend/kind")).toString(),
                     QStringLiteral("remote"));
            QCOMPARE(raw.value(QStringLiteral("backend/apiKey")).toString(), kKey);
        }
        const AppSettings back = AppSettings::load();
        QCOMPARE(back.backend, BackendConfig::Kind::Remote);
        QCOMPARE(back.remoteUrl, s.remoteUrl);
        QCOMPARE(back.remoteApiKey, kKey);
        QCOMPARE(back.remoteModel, QStringLiteral("demo"));
        const BackendConfig config = back.backendConfig();
        QVERIFY(config.isRemote());
        QCOMPARE(config.url, s.remoteUrl);

        SettingsDialog dialog(back);
        auto* backend = dialog.findChild<QComboBox*>(QStringLiteral("backendCombo"));
        auto* key = dialog.findChild<QLineEdit*>(QStringLiteral("remoteKeyEdit"));
        auto* url = dialog.findChild<QLineEdit*>(QStringLiteral("remoteUrlEdit"));
        QCOMPARE(backend->currentIndex(), 1);
        QVERIFY(dialog.findChild<QGroupBox*>(QStringLiteral("serverGroup"))->isEnabled());
        QVERIFY(!dialog.findChild<QGroupBox*>(QStringLiteral("engineGroup"))->isEnabled());
        QCOMPARE(key->echoMode(), QLineEdit::Password);
        QCOMPARE(key->text(), kKey);

        // "List models": off the GUI thread (the event loop keeps running meanwhile).
        dialog.remoteModelCombo()->setCurrentText(QString());
        QSignalSpy listed(&dialog, &SettingsDialog::modelsListed);
        QTest::mouseClick(dialog.findChild<QPushButton*>(QStringLiteral("listModelsButton")),
                          Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(listed.size(), 1, 30000);
        QCOMPARE(listed.first().at(0).toString(), QString());
        QCOMPARE(dialog.remoteModelCombo()->count(), 1);
        QCOMPARE(dialog.remoteModelCombo()->currentText(), QStringLiteral("demo"));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        // FOLIO_SHOTS_DIR set: a picture of the dialog in remote mode (documentation, review).
        if (const QString shots = qEnvironmentVariable("FOLIO_SHOTS_DIR"); !shots.isEmpty())
            QVERIFY(dialog.grab().save(shots + QStringLiteral("/settings-remote.png")));

        // A wrong key and a dead server are reported, without the key.
        key->setText(QStringLiteral("wrong-key-123"));
        QTest::mouseClick(dialog.findChild<QPushButton*>(QStringLiteral("listModelsButton")),
                          Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(listed.size(), 2, 30000);
        QVERIFY(listed.last().at(0).toString().contains(QStringLiteral("401")));
        QVERIFY(!dialog.listStatus().contains(QStringLiteral("wrong-key-123")));
        url->setText(QStringLiteral("http://127.0.0.1:1"));
        QTest::mouseClick(dialog.findChild<QPushButton*>(QStringLiteral("listModelsButton")),
                          Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(listed.size(), 3, 30000);
        QVERIFY(dialog.listStatus().startsWith(QStringLiteral("Cannot list the models")));

        backend->setCurrentIndex(0);
        QVERIFY(!dialog.findChild<QGroupBox*>(QStringLiteral("serverGroup"))->isEnabled());
        const AppSettings edited = dialog.settings();
        QCOMPARE(edited.backend, BackendConfig::Kind::Embedded);
        QCOMPARE(edited.remoteApiKey, QStringLiteral("wrong-key-123"));
        QCOMPARE(edited.remoteUrl, QStringLiteral("http://127.0.0.1:1"));
    }
};

QTEST_MAIN(TestWorkbenchRemote)
#include "test_workbench_remote.moc"
