#pragma once
// Which backend answers the chat: the embedded engine (the model of LoadOptions) or an
// OpenAI-compatible server (vLLM, SGLang, `folio-cli serve`) at a URL with a model name and an
// optional API key. The key is only ever handed to RemoteBackend (Authorization header); it is
// never put in a message, a log line or a label.

#include <QMetaType>
#include <QString>

namespace folio::ui {

struct BackendConfig {
    enum class Kind { Embedded, Remote };
    Kind kind = Kind::Embedded;
    QString url;    // remote: "http://host:8000" or ".../v1"
    QString apiKey; // remote: "" sends no Authorization header
    QString model;  // remote: the server's model id

    bool isRemote() const { return kind == Kind::Remote; }
    // "embedded" | "remote" (the stable names used in the settings file).
    static QString kindKey(Kind kind);
    static Kind kindFromKey(const QString& key);
};

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::BackendConfig)
