#pragma once
// The Qt bridge to folio::Engine. EngineWorker lives in its own QThread, owns the Engine and
// talks to the GUI only through queued signals and slots; the GUI thread never waits on it.
// Engine callbacks (which run on the engine's scheduler thread) are turned into signals.

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
};

struct GenerationSettings {
    double temperature = 0.7;
    int topK = 40;
    double topP = 0.95;
    double minP = 0.05;
    double repetitionPenalty = 1.0;
    int maxTokens = 512;
    quint64 seed = 0;
    bool promptLookup = true;
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

struct EngineStatsQ {
    bool modelLoaded = false;
    QString state;
    qint64 contextUsed = 0, contextLimit = 0;
    quint64 weightsBytes = 0, kvBytes = 0;
    double lastPrefillTps = 0, lastDecodeTps = 0, windowDecodeTps = 0, lastTtftMs = 0,
           specAcceptance = 0;
    qint64 prefixHitTokens = 0;
};

class EngineWorker : public QObject {
    Q_OBJECT
public:
    EngineWorker();
    ~EngineWorker() override;

public Q_SLOTS:
    void loadModel(const QString& path, int threads, qint64 context);
    // Submits a conversation; `requestId` is chosen by the caller and names the signals below.
    void submit(qint64 requestId, const QList<folio::ui::ChatTurn>& turns,
                const folio::ui::GenerationSettings& settings);
    void cancel(qint64 requestId);
    void cancelAll();
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
    QHash<qint64, RequestId> requests_; // caller id -> engine id (touched on this thread only)
    QTimer* statsTimer_ = nullptr;
};

// Registers the types above for queued connections (call once before connecting).
void registerEngineTypes();

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::ChatTurn)
Q_DECLARE_METATYPE(folio::ui::GenerationSettings)
Q_DECLARE_METATYPE(folio::ui::ModelFactsQ)
Q_DECLARE_METATYPE(folio::ui::RequestStatsQ)
Q_DECLARE_METATYPE(folio::ui::EngineStatsQ)
