#pragma once
// The values EngineWorker exchanges with the GUI through queued signals: a turn of the
// conversation, the facts of the model that answers, and the figures of one answer.

#include "core/pipeline/chat_turn.h"
#include "folio/engine.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

namespace folio::ui {

struct ModelFactsQ {
    QString path, name, architecture, chatTemplate;
    qint64 contextLimit = 0, modelContext = 0, parameters = 0, activeParameters = 0, fileBytes = 0;
    int threads = 0;
    bool remote = false;          // answered by an OpenAI-compatible server (path: its URL)
    bool acceptsImages = false;   // images attached to a question go with it
    QString fingerprint;          // the model file's contents (ModelFacts::fingerprint); "" remote
    QString projectorFingerprint; // the vision projector's; "" without one
    QString projectorNote;        // why the projector given was set aside ("" when it loaded)
    QString placement; // which device holds which layers (ModelFacts::placement); "" remote
};

struct RequestStatsQ {
    qint64 promptTokens = 0, reusedTokens = 0, generatedTokens = 0;
    // Prompt tokens the session holds at the end (fewer than promptTokens after a cancel
    // during prefill; 0 when the backend does not say).
    qint64 promptReadTokens = 0;
    double ttftMs = 0, prefillTps = 0, decodeTps = 0;
    qint64 specDrafted = 0, specAccepted = 0;
    QString stopReason, text;
};

RequestStatsQ toRequestStatsQ(const RequestStats& stats);

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::ModelFactsQ)
Q_DECLARE_METATYPE(folio::ui::RequestStatsQ)
