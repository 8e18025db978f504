#pragma once
// The Qt bridge to folio::Engine. EngineWorker lives in its own QThread, owns the Engine and
// talks to the GUI only through queued signals and slots; the GUI thread never waits on it.
// Engine callbacks (which run on the engine's scheduler thread) are turned into signals.

#include "engine/engine_stats_q.h"
#include "engine/generation_settings.h"
#include "engine/load_options.h"
#include "folio/engine.h"

#include <QHash>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

class QTimer;

namespace folio::ui {

struct ChatTurn {
    QString role; // system | user | assistant
    QString content;
    QStringList images; // image files attached to a user turn (used with a vision projector)
};

struct ModelFactsQ {
    QString path, name, architecture, chatTemplate;
    qint64 contextLimit = 0, modelContext = 0, parameters = 0, activeParameters = 0, fileBytes = 0;
    int threads = 0;
};

struct RequestStatsQ {
    qint64 promptTokens = 0, reusedTokens = 0, generatedTokens = 0;
    double ttftMs = 0, prefillTps = 0, decodeTps = 0;
    qint64 specDrafted = 0, specAccepted = 0;
    QString stopReason, text;
};

class EngineWorker : public QObject {
    Q_OBJECT
public:
    EngineWorker();
    ~EngineWorker() override;

public Q_SLOTS:
    void loadModel(const folio::ui::LoadOptions& options);
    // Submits a conversation; `requestId` is chosen by the caller and names the signals below.
    void submit(qint64 requestId, const QList<folio::ui::ChatTurn>& turns,
                const folio::ui::GenerationSettings& settings);
    void cancel(qint64 requestId);
    void cancelAll();
    // Polls Engine::stats() (thread-safe and cheap) every `intervalMs`.
    void startStatsTimer(int intervalMs);

Q_SIGNALS:
    void modelLoaded(const folio::ui::ModelFactsQ& facts);
    void loadFailed(const QString& message);
    void loadProgress(double fraction);
    void progress(qint64 requestId, qint64 done, qint64 total, double etaSeconds);
    void tokenArrived(qint64 requestId, const QString& text);
    void finished(qint64 requestId, const folio::ui::RequestStatsQ& stats);
    void failed(qint64 requestId, const QString& message);
    void statsUpdated(const folio::ui::EngineStatsQ& stats);

private:
    void publishStats();

    std::unique_ptr<Engine> engine_;
    SessionId session_ = 0;
    bool hasVision_ = false;
    bool speculation_ = true;
    QHash<qint64, RequestId> requests_; // caller id -> engine id (touched on this thread only)
    QTimer* statsTimer_ = nullptr;
};

// Registers the types above for queued connections (call once before connecting).
void registerEngineTypes();

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::ChatTurn)
Q_DECLARE_METATYPE(folio::ui::ModelFactsQ)
Q_DECLARE_METATYPE(folio::ui::RequestStatsQ)
