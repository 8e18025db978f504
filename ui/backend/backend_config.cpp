#include "backend/backend_config.h"

namespace folio::ui {

QString BackendConfig::kindKey(Kind kind) {
    return kind == Kind::Remote ? QStringLiteral("remote") : QStringLiteral("embedded");
}

BackendConfig::Kind BackendConfig::kindFromKey(const QString& key) {
    return key == QLatin1String("remote") ? Kind::Remote : Kind::Embedded;
}

} // namespace folio::ui
