#include "model_info/model_facts.h"
#include "backend/user_error.h"

#include <QFileInfo>
#include <QObject>
#include <QtConcurrent>

namespace folio::ui {

namespace {
QString q(const std::string& s) {
    return QString::fromStdString(s);
}
} // namespace

QFuture<ModelInspection> inspectModelAsync(const QString& path) {
    return QtConcurrent::run([path] {
        ModelInspection r;
        auto info = inspect_model(path.toStdString());
        if (info) {
            r.ok = true;
            r.info = std::move(info).value();
        } else {
            r.error = userErrorText(info.error());
        }
        return r;
    });
}

QString modelSummaryLine(const ModelInfo& info) {
    QString params = q(format_count(info.parameter_count));
    if (info.active_parameter_count != info.parameter_count)
        params += QObject::tr(" (%1 active)").arg(q(format_count(info.active_parameter_count)));
    return QObject::tr("%1 · %2 · %3 · %4 params")
        .arg(q(info.name), q(info.architecture), q(format_bytes(info.file_size)), params);
}

QList<QPair<QString, QString>> modelFactRows(const ModelInfo& info) {
    QList<QPair<QString, QString>> rows;
    rows.append({QObject::tr("name"), q(info.name)});
    rows.append({QObject::tr("architecture"), q(info.architecture)});
    rows.append({QObject::tr("file"), QFileInfo(q(info.path)).fileName()});
    rows.append({QObject::tr("file size"), q(format_bytes(info.file_size))});
    rows.append({QObject::tr("parameters"), q(format_count(info.parameter_count))});
    if (info.expert_count > 0) {
        rows.append({QObject::tr("active / token"), q(format_count(info.active_parameter_count))});
        rows.append(
            {QObject::tr("experts"),
             QObject::tr("%1 routed, %2 used").arg(info.expert_count).arg(info.expert_used_count)});
    }
    if (info.context_length > 0)
        rows.append({QObject::tr("context"), QString::number(info.context_length)});
    if (info.vocab_size > 0)
        rows.append({QObject::tr("vocabulary"), QString::number(info.vocab_size)});
    for (const TensorTypeSummary& t : info.by_type)
        rows.append(
            {QObject::tr("weights %1").arg(q(t.type_name)),
             QObject::tr("%1 in %2 tensors").arg(q(format_bytes(t.bytes))).arg(t.tensor_count)});
    return rows;
}

} // namespace folio::ui
