#pragma once
// The report file (issue #49 §2): JSON {"format": "folio-report", "version": 1, "title",
// "template": {"name", "text"}, "documents": [{"path", "title", "fingerprint", "pages"}],
// "images", "data_sources", "model", "created", "updated", "sections": [{"heading", "state",
// "text", "error", "pages_used": [{"doc" (1-based), "pages", "page_count"}], "figures"
// (as in the chat file), "prompt_tokens", "seconds", "images_used"}]}. Saved atomically after
// every section, so a crash loses at most the section being written.

#include "core/report/report.h"

#include <QJsonObject>
#include <QString>

namespace folio::ui {

inline constexpr int kReportFormatVersion = 1;

QJsonObject reportToJson(const Report& report);
// False with a message for the user in `error` (what is wrong, what to do).
bool reportFromJson(const QJsonObject& json, Report& report, QString* error);

// Written atomically; "" on success, else a message naming the file.
QString saveReport(const QString& path, const Report& report);
// False with a message naming the file when it cannot be read as a report.
bool loadReport(const QString& path, Report& report, QString* error);

} // namespace folio::ui
