#include "backend/remote_probe.h"
#include "backend/user_error.h"

#include <QObject>

namespace folio::ui {

RemoteOptions remoteOptions(const BackendConfig& c) {
    RemoteOptions o;
    o.base_url = c.url.trimmed().toStdString();
    o.api_key = c.apiKey.toStdString();
    o.model = c.model.trimmed().toStdString();
    return o;
}

RemoteProbe probeRemote(const BackendConfig& config, bool requireModel, int retries) {
    RemoteProbe p;
    RemoteOptions o = remoteOptions(config);
    o.max_retries = retries;
    RemoteBackend backend(o);
    if (auto ok = backend.valid(); !ok) {
        p.error = userErrorText(ok.error());
        return p;
    }
    auto models = backend.list_models();
    if (!models) {
        p.error = userErrorText(models.error());
        return p;
    }
    QString chosen = config.model.trimmed();
    for (const RemoteModel& m : *models) {
        const QString id = QString::fromStdString(m.id);
        p.models << id;
        if (id == chosen || (chosen.isEmpty() && models->size() == 1)) {
            p.facts.name = id;
            p.facts.contextLimit = m.context_length;
            p.facts.modelContext = m.context_length;
            p.facts.acceptsImages = m.accepts_images;
        }
    }
    p.facts.path = QString::fromStdString(backend.status().endpoint);
    p.facts.architecture = QObject::tr("remote server");
    p.facts.remote = true;
    if (requireModel && p.facts.name.isEmpty()) {
        const QString served =
            p.models.isEmpty() ? QObject::tr("none") : p.models.join(QStringLiteral(", "));
        p.error =
            chosen.isEmpty()
                ? QObject::tr("choose a model in Settings (the server serves: %1)").arg(served)
                : QObject::tr("the server does not serve a model named \"%1\" (it serves: "
                              "%2)")
                      .arg(chosen, served);
    }
    return p;
}

} // namespace folio::ui
