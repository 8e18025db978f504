#pragma once
// The application settings (QSettings, group "engine"): model and vision projector (with a list
// of recent models), threads, context length, the KV cache's RAM budget, offload folder and
// storage type, and speculation. They become the LoadOptions of the next model load.
// Group "backend": which backend answers (the embedded engine or an OpenAI-compatible server)
// and the server's URL, model name and API key (stored in the settings file like the rest, in
// the user's private config folder; never printed or logged).

#include "backend/backend_config.h"
#include "backend/load_options.h"

#include <QString>
#include <QStringList>

namespace folio::ui {

struct AppSettings {
    QString modelPath;
    QString mmprojPath;
    QStringList recentModels; // most recent first
    QStringList recentMmproj;
    int threads = 0; // 0: all cores
    // 0: what the model was trained for, limited by what RAM + the disk tier hold
    // (backend/long_context_defaults.h).
    qint64 context = 0;
    qint64 ramBudgetMiB = 0; // 0: from available memory
    QString offloadDir;      // empty: no disk tier
    bool offloadEnabled = true;
    QString kvType = QStringLiteral("auto"); // "auto": the cheapest safe type for the model
    bool speculation = true;
    // Where the model's weights live (folio/engine.h WeightsMemory): "mapped" (from the file),
    // "auto" (copied into RAM with 2 MiB pages when they fit) or "ram" (always copied).
    QString weightsMemory = QStringLiteral("mapped");

    BackendConfig::Kind backend = BackendConfig::Kind::Embedded;
    QString remoteUrl = QStringLiteral("http://127.0.0.1:8080");
    QString remoteApiKey;
    // Where the key is (settings/api_key_store.h): the system keyring, or folio.conf with a
    // warning for the user where no keyring runs. storedApiKey: the key as loaded.
    bool apiKeyInKeyring = false;
    QString apiKeyWarning;
    QString storedApiKey;
    QString remoteModel;

    // Group "chat": Enter sends the question (Shift+Enter: new line); off: Ctrl+Enter sends.
    bool enterSends = true;

    static AppSettings load();
    // Returns a warning for the user when a changed API key could not go into the keyring.
    QString save() const;
    // Puts `path` first in recentModels (at most 8) and makes it the model.
    void rememberModel(const QString& path);
    // Puts `path` first in recentMmproj and makes it the vision projector ("" : none).
    void rememberMmproj(const QString& path);
    LoadOptions loadOptions() const;
    BackendConfig backendConfig() const;

    static QString defaultOffloadDir();
    static QStringList kvTypes();           // "auto", "f32", "f16", "bf16", "q8_0"
    static QStringList weightsMemoryKeys(); // "mapped", "auto", "ram"
};

} // namespace folio::ui
