#include "core/report/builtin_templates.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("folio::ui", text);
}

QString builtInPath(const QString& id, const QString& language) {
    const QString lang = language == QLatin1String("zh_CN") ? language : QStringLiteral("en");
    return QStringLiteral(":/report-templates/%1.%2.md").arg(id, lang);
}

} // namespace

QStringList builtInTemplateIds() {
    return {QStringLiteral("equity-note"), QStringLiteral("policy-brief"),
            QStringLiteral("comparison")};
}

QList<ReportTemplate> builtInReportTemplates(const QString& language) {
    QList<ReportTemplate> templates;
    for (const QString& id : builtInTemplateIds()) {
        const TemplateParse parse = readReportTemplate(builtInPath(id, language));
        if (parse.ok()) // the built-in files are tested to parse (test_report_template)
            templates << parse.value;
    }
    return templates;
}

TemplateParse findReportTemplate(const QString& nameOrPath, const QString& language) {
    const QFileInfo file(nameOrPath);
    if (file.isFile())
        return readReportTemplate(file.absoluteFilePath());
    if (builtInTemplateIds().contains(nameOrPath))
        return readReportTemplate(builtInPath(nameOrPath, language));
    TemplateParse parse;
    parse.error = tr("no template “%1”: give a template file, or one of %2")
                      .arg(nameOrPath, builtInTemplateIds().join(QStringLiteral(", ")));
    return parse;
}

} // namespace folio::ui
