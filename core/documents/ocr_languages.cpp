#include "core/documents/ocr_languages.h"

#include <QSettings>

namespace folio::ui {

namespace {

QString settingsKey(const QString& fingerprint) {
    return QStringLiteral("ocr-languages/") + fingerprint;
}

} // namespace

QStringList ocrLanguageChoices() {
    return {QStringLiteral("auto"), QStringLiteral("eng"), QStringLiteral("chi_sim"),
            QStringLiteral("eng+chi_sim")};
}

QString savedOcrLanguages(const QString& fingerprint) {
    if (fingerprint.isEmpty())
        return QStringLiteral("auto");
    const QString value = QSettings().value(settingsKey(fingerprint)).toString();
    return ocrLanguageChoices().contains(value) ? value : QStringLiteral("auto");
}

void saveOcrLanguages(const QString& fingerprint, const QString& languages) {
    if (fingerprint.isEmpty())
        return;
    QSettings settings;
    if (languages.isEmpty() || languages == QLatin1String("auto"))
        settings.remove(settingsKey(fingerprint));
    else
        settings.setValue(settingsKey(fingerprint), languages);
}

} // namespace folio::ui
