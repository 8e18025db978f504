#include "core/report/report.h"

namespace folio::ui {

int Report::sectionsLeft() const {
    int left = 0;
    for (const ReportSection& s : sections)
        left += s.state == ReportSection::State::Pending || s.state == ReportSection::State::Failed;
    return left;
}

Report newReport(const ReportTemplate& shape, const QString& templateText,
                 const QString& templateName) {
    Report report;
    report.title = shape.title;
    report.templateText = templateText;
    report.templateName = templateName;
    report.shape = shape;
    report.created = report.updated = QDateTime::currentDateTimeUtc();
    for (int i = 0; i < shape.sections.size(); ++i)
        report.sections << ReportSection{};
    return report;
}

QString reportSectionStateKey(ReportSection::State state) {
    switch (state) {
    case ReportSection::State::Pending:
        return QStringLiteral("pending");
    case ReportSection::State::Done:
        return QStringLiteral("done");
    case ReportSection::State::Edited:
        return QStringLiteral("edited");
    case ReportSection::State::Failed:
        return QStringLiteral("failed");
    }
    return QString();
}

bool sectionHasFiguresNotFound(const ReportSection& section) {
    return tallyFigures(section.figures).notFound > 0;
}

} // namespace folio::ui
