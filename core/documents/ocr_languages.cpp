#include "core/documents/ocr_languages.h"

namespace folio::ui {

QStringList ocrLanguageChoices() {
    return {QStringLiteral("auto"), QStringLiteral("eng"), QStringLiteral("chi_sim"),
            QStringLiteral("eng+chi_sim")};
}

QString validOcrLanguages(const QString& languages) {
    return ocrLanguageChoices().contains(languages) ? languages : QStringLiteral("auto");
}

} // namespace folio::ui
