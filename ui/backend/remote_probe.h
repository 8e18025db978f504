#pragma once
// Asks an OpenAI-compatible server which models it serves (GET /v1/models). Blocking: call it
// off the GUI thread (QtConcurrent), as the Settings dialog's "List models" and EngineWorker's
// switch to a remote backend do.

#include "backend/backend_config.h"
#include "backend/engine_worker_types.h"
#include "folio/remote_backend.h"

#include <QString>
#include <QStringList>

namespace folio::ui {

struct RemoteProbe {
    QString error;      // "" : the server answered (and serves the configured model)
    QStringList models; // the ids it serves
    ModelFactsQ facts;  // the configured model (its id, the URL, the context length if told)
};

// The RemoteBackend options of a configuration (the key goes nowhere else).
RemoteOptions remoteOptions(const BackendConfig& config);
// `requireModel`: also checks that config.model is served (when empty and the server serves
// exactly one model, that one is chosen).
RemoteProbe probeRemote(const BackendConfig& config, bool requireModel, int retries = 3);

} // namespace folio::ui
