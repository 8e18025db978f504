#pragma once
// Which model answers: a GGUF file loaded by the engine (inspected first, off the GUI thread),
// or an OpenAI-compatible server. Owns the engine's thread and worker, counts the loads and
// server checks in flight (busy from the first to the last), and tells the chat and the Devices
// pane what it knows; the window shows its lines in the status bar.

#include "backend/engine_worker.h"

#include <QList>
#include <QObject>
#include <QString>

class QThread;

namespace folio::ui {

class ChatPane;
class DevicesPane;

class ModelController : public QObject {
    Q_OBJECT
public:
    ModelController(ChatPane* chat, DevicesPane* devices, QObject* parent = nullptr);
    ~ModelController() override; // stops the engine's thread
    // Stops the engine's thread now (the window does, before its panes go); idempotent.
    void shutdown();

    EngineWorker* worker() const { return worker_; }
    // Sets the model file (GGUF) to use; the engine loads it off the GUI thread with the
    // options of the Settings dialog (remembered as the current model).
    void openModel(const QString& path);
    // The vision projector for the next model load (--mmproj); "" for none.
    void setMmproj(const QString& path);
    // A model chosen in Settings replaces a --mmproj given at start.
    void forgetMmproj() { mmprojSet_ = false; }
    // The model of the last session, or the server chosen in Settings; nothing on a first run.
    void loadSavedModel();
    // Answers from an OpenAI-compatible server from now on (checked off the GUI thread; ready
    // once it answers the model list); embedded: back to the engine.
    void useBackend(const BackendConfig& config);

    bool isLoading() const { return loads_ > 0; }
    bool isReady() const { return ready_; }
    bool isRemote() const { return remote_; }
    qint64 contextLimit() const { return contextLimit_; }
    QString modelLine() const { return modelLine_; }

Q_SIGNALS:
    // A model or server is ready: emitted before the rest is told (and before loadingChanged),
    // so a question waiting for it is planned with its facts.
    void ready(const folio::ui::ModelFactsQ& facts);
    // The model could not be loaded, or the server cannot be used.
    void failed();
    void loadingChanged();
    void modelLineChanged(const QString& line); // "Model: …", "Remote: …", "No model loaded"
    void stateChanged(const QString& state);    // "loading model 40%", "ready"
    void threadsChanged(int threads);
    void statusMessage(const QString& message, int timeoutMs);
    // The "Loading with …" line of a load that ended (the window clears it if still shown).
    void loadingMessageDone(const QString& message);
    void requestLoad(const folio::ui::LoadOptions& options);
    void requestBackend(const folio::ui::BackendConfig& config);

private:
    void onModelLoaded(const ModelFactsQ& facts);
    void onLoadFailed(const QString& message);
    void setModelLine(const QString& line);
    void loadStarted();
    void loadEnded();

    ChatPane* chat_;
    DevicesPane* devices_;
    QThread* thread_ = nullptr;
    EngineWorker* worker_ = nullptr;
    int loads_ = 0;
    bool ready_ = false;
    bool connecting_ = false; // a remote server is being checked
    bool remote_ = false;
    qint64 contextLimit_ = 0;
    QString modelLine_;
    QString readyLine_;            // the model line of the backend that answers now
    bool answeringBefore_ = false; // a backend answered when the server check began
    QString loadingMessage_;
    QList<int> loadErrors_; // notifications of failed loads: gone once one succeeds
    QString mmproj_;
    bool mmprojSet_ = false;
};

} // namespace folio::ui
