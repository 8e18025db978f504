#pragma once
// What a remote backend reports, as the GUI receives it through queued signals (the Devices
// pane shows it in remote mode instead of the engine's memory and cache figures).

#include <QMetaType>
#include <QString>

namespace folio::ui {

struct BackendStatusQ {
    QString kind;     // "embedded" | "remote"
    QString model;    // the server's model id
    QString endpoint; // base URL (never the API key)
    int running = 0;  // requests in flight
    // The most recent finished answer: token counts from the server's usage (cached: the
    // server's prompt_tokens_details.cached_tokens), times measured by the client.
    qint64 promptTokens = 0, cachedTokens = 0, generatedTokens = 0;
    double ttftMs = 0, decodeTps = 0;
    QString stopReason; // "" : no answer yet
};

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::BackendStatusQ)
