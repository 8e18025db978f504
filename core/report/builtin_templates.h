#pragma once
// The report templates Folio ships (issue #49): equity-note, policy-brief and comparison, each
// in English and Simplified Chinese, as Markdown files embedded at :/report-templates/ (the
// same files are in the source tree, core/report/templates/, for users to copy).

#include "core/report/report_template.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace folio::ui {

// "equity-note", "policy-brief", "comparison"
QStringList builtInTemplateIds();
// The built-in templates in `language` ("en" or "zh_CN"; others fall back to "en").
QList<ReportTemplate> builtInReportTemplates(const QString& language);
// A template file (when `nameOrPath` names one that exists) or a built-in id in `language`.
// Unknown: an error naming the built-in ids.
TemplateParse findReportTemplate(const QString& nameOrPath, const QString& language);

} // namespace folio::ui
