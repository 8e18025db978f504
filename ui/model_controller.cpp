#include "model_controller.h"

#include "backend/long_context_defaults.h"
#include "chat/chat_pane.h"
#include "devices/devices_pane.h"
#include "model_info/model_facts.h"
#include "notifications/notification_area.h"
#include "settings/app_settings.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QThread>

#include <utility>

namespace folio::ui {

ModelController::ModelController(ChatPane* chat, DevicesPane* devices, QObject* parent)
    : QObject(parent), chat_(chat), devices_(devices), modelLine_(tr("No model loaded")) {
    registerEngineTypes();
    thread_ = new QThread(this);
    thread_->setObjectName(QStringLiteral("EngineWorker"));
    worker_ = new EngineWorker;
    worker_->moveToThread(thread_);
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(this, &ModelController::requestLoad, worker_, &EngineWorker::loadModel);
    connect(this, &ModelController::requestBackend, worker_, &EngineWorker::useBackend);
    connect(worker_, &EngineWorker::modelLoaded, this, &ModelController::onModelLoaded);
    connect(worker_, &EngineWorker::loadProgress, this, [this](double fraction) {
        Q_EMIT stateChanged(tr("loading model %1%").arg(qRound(fraction * 100)));
    });
    connect(worker_, &EngineWorker::loadFailed, this, &ModelController::onLoadFailed);
    connect(worker_, &EngineWorker::statsUpdated, devices_, &DevicesPane::setEngineStats);
    connect(worker_, &EngineWorker::backendStatusUpdated, devices_, &DevicesPane::setBackendStatus);
    thread_->start();
    QMetaObject::invokeMethod(
        worker_, [w = worker_] { w->startStatsTimer(250); }, Qt::QueuedConnection);
}

ModelController::~ModelController() {
    shutdown();
}

void ModelController::shutdown() {
    // The worker's Engine cancels its requests and joins its scheduler when destroyed.
    thread_->quit();
    thread_->wait();
}

void ModelController::setModelLine(const QString& line) {
    modelLine_ = line;
    Q_EMIT modelLineChanged(line);
}

void ModelController::loadStarted() {
    if (loads_++ == 0)
        Q_EMIT loadingChanged();
}

void ModelController::loadEnded() {
    if (loads_ > 0 && --loads_ == 0)
        Q_EMIT loadingChanged();
}

void ModelController::onModelLoaded(const ModelFactsQ& f) {
    ready_ = true;
    connecting_ = false;
    remote_ = f.remote;
    contextLimit_ = f.contextLimit;
    Q_EMIT ready(f);
    devices_->setRemoteMode(f.remote, f.path, f.name, f.contextLimit);
    if (f.remote) {
        setModelLine(tr("Remote: %1 at %2").arg(f.name, f.path));
        devices_->setModelFacts(
            {{tr("model"), f.name},
             {tr("server"), f.path},
             {tr("context"),
              f.contextLimit > 0 ? QString::number(f.contextLimit) : tr("not reported")}});
    }
    chat_->setModelReady(true, QString());
    chat_->setContextLimit(f.contextLimit); // the chat's last answer against the new limit
    // Errors of earlier loads are stale once one succeeds.
    for (int id : std::exchange(loadErrors_, {}))
        chat_->notifications()->dismiss(id);
    Q_EMIT loadingMessageDone(loadingMessage_);
    readyLine_ = modelLine_;
    Q_EMIT stateChanged(tr("ready"));
    if (!f.remote && f.threads > 0)
        Q_EMIT threadsChanged(f.threads);
    if (!f.projectorNote.isEmpty())
        chat_->notifications()->post(
            NotificationArea::Kind::Error,
            tr("The vision projector was set aside: %1\nThe model answers without images. "
               "Choose a projector made for this model in File → Settings…, or none.")
                .arg(f.projectorNote));
    // Where the engine put each layer's weights and KV (engine/backend's plan).
    if (!f.remote && !f.placement.isEmpty())
        devices_->setModelFact(tr("placement"), f.placement);
    loadEnded();
}

void ModelController::onLoadFailed(const QString& message) {
    Q_EMIT loadingMessageDone(loadingMessage_);
    const bool server = std::exchange(connecting_, false);
    if (server && answeringBefore_) {
        // The worker keeps the backend it had: that model still answers, and says so.
        ready_ = true;
        setModelLine(readyLine_);
        chat_->setModelReady(true, QString());
        loadErrors_ << chat_->notifications()->post(
            NotificationArea::Kind::Error,
            tr("Cannot use the server; Folio goes on answering with %2. Check the server's "
               "address and API key in File → Settings….\n%1")
                .arg(message, readyLine_));
        loadEnded();
        return;
    }
    ready_ = false;
    Q_EMIT failed();
    if (server) {
        setModelLine(tr("Not connected"));
        chat_->setModelReady(
            false,
            tr("Cannot use the server. Check File → Settings…\n%1").arg(message.toHtmlEscaped()));
        loadErrors_ << chat_->notifications()->post(
            NotificationArea::Kind::Error,
            tr("Cannot use the server. Check its address and API key in File → Settings… and "
               "that the server is running, then connect again.\n%1")
                .arg(message));
    } else {
        setModelLine(tr("No model loaded")); // the engine let the old one go before loading
        chat_->setModelReady(false, tr("The model could not be loaded.\n%1").arg(message));
        loadErrors_ << chat_->notifications()->post(NotificationArea::Kind::Error,
                                                    tr("Cannot load the model. %1").arg(message));
    }
    loadEnded();
}

void ModelController::openModel(const QString& path) {
    setModelLine(tr("Inspecting %1…").arg(QFileInfo(path).fileName()));
    loadStarted(); // the inspection
    auto* watcher = new QFutureWatcher<ModelInspection>(this);
    connect(watcher, &QFutureWatcher<ModelInspection>::finished, this, [this, watcher, path] {
        const ModelInspection r = watcher->result();
        watcher->deleteLater();
        if (r.ok) {
            setModelLine(tr("Model: %1").arg(modelSummaryLine(r.info)));
            devices_->setModelFacts(modelFactRows(r.info));
            chat_->setModelReady(false, tr("Loading %1 (%2)…")
                                            .arg(QString::fromStdString(r.info.name),
                                                 QString::fromStdString(r.info.architecture)));
            ready_ = false;
            loadStarted(); // until the engine reports
            // A server check still running is superseded by the load: it never reports.
            if (std::exchange(connecting_, false))
                loadEnded();
            AppSettings settings = AppSettings::load();
            settings.rememberModel(path);
            settings.backend = BackendConfig::Kind::Embedded; // a model file: the engine answers
            devices_->setRemoteMode(false);
            if (mmprojSet_)
                settings.rememberMmproj(mmproj_);
            settings.save();
            // Long-document defaults (context, KV type, RAM budget, disk tier) where the
            // settings leave them to Folio.
            LoadOptions options = settings.loadOptions();
            const LongContextPlan plan = applyLongContextDefaults(options, options.offloadDir,
                                                                  !options.offloadDir.isEmpty());
            loadingMessage_ = tr("Loading with %1, KV %2").arg(describePlan(plan), options.kvType);
            Q_EMIT statusMessage(loadingMessage_, 0); // until the load ends
            Q_EMIT requestLoad(options);
        } else {
            setModelLine(tr("No model loaded"));
            loadErrors_ << chat_->notifications()->post(
                NotificationArea::Kind::Error,
                tr("Cannot open the model: %1\nChoose a GGUF model file with File → Open "
                   "model….")
                    .arg(r.error));
        }
        loadEnded(); // the inspection
    });
    watcher->setFuture(inspectModelAsync(path));
}

void ModelController::setMmproj(const QString& path) {
    mmproj_ = path;
    mmprojSet_ = true;
}

void ModelController::useBackend(const BackendConfig& config) {
    if (!config.isRemote()) {
        devices_->setRemoteMode(false);
        // A server check still running is superseded: it never reports.
        if (std::exchange(connecting_, false))
            loadEnded();
        Q_EMIT requestBackend(config);
        return;
    }
    answeringBefore_ = ready_;
    ready_ = false;
    setModelLine(tr("Connecting to %1…").arg(config.url));
    chat_->setModelReady(false, tr("Connecting to %1…").arg(config.url.toHtmlEscaped()));
    // Until the worker reports; only the last check does (an earlier one is superseded).
    if (!std::exchange(connecting_, true))
        loadStarted();
    Q_EMIT requestBackend(config);
}

void ModelController::loadSavedModel() {
    const AppSettings settings = AppSettings::load();
    if (settings.backend == BackendConfig::Kind::Remote) {
        useBackend(settings.backendConfig());
        return;
    }
    if (!settings.modelPath.isEmpty() && QFileInfo(settings.modelPath).isFile())
        openModel(settings.modelPath);
}

} // namespace folio::ui
