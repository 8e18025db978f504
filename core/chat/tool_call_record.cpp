#include "core/chat/tool_call_record.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace folio::ui {

QString ToolCallRecord::query() const {
    const QJsonObject o = QJsonDocument::fromJson(arguments.toUtf8()).object();
    const QJsonValue q = o.value(QStringLiteral("query"));
    return q.isString() ? q.toString() : arguments;
}

} // namespace folio::ui
