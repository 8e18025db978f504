#pragma once
// Presents a model file's facts (folio::inspect_model) in the status bar and the Devices pane,
// and inspects files off the GUI thread.

#include "folio/model_info.h"

#include <QFuture>
#include <QList>
#include <QPair>
#include <QString>

namespace folio::ui {

struct ModelInspection {
    bool ok = false;
    QString error;  // when !ok: the engine's message (names the file, field and byte offset)
    ModelInfo info; // when ok
};

QFuture<ModelInspection> inspectModelAsync(const QString& path);

// "demo · deepseek2 · 2.8 MiB · 771K params (550K active)"
QString modelSummaryLine(const ModelInfo& info);
// Rows for the Devices pane: architecture, file, size, parameters, experts, context, vocabulary,
// then bytes per tensor type.
QList<QPair<QString, QString>> modelFactRows(const ModelInfo& info);

} // namespace folio::ui
