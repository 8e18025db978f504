#pragma once
// The OCR languages the user chose for a document (issue #46 §1): "auto" (the document's
// script decides), "eng", "chi_sim" or "eng+chi_sim", kept by the document's fingerprint in
// the application's settings (QSettings), so the choice holds in every chat and after a
// restart.

#include <QString>
#include <QStringList>

namespace folio::ui {

// The choices offered, "auto" first.
QStringList ocrLanguageChoices();

// The choice for the document with this fingerprint; "auto" when none was made.
QString savedOcrLanguages(const QString& fingerprint);
// Keeps `languages` for the document ("auto" forgets the choice).
void saveOcrLanguages(const QString& fingerprint, const QString& languages);

} // namespace folio::ui
