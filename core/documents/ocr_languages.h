#pragma once
// The OCR languages a user can choose for a document (issue #46 §1): "auto" (the document's
// script decides), "eng", "chi_sim" or "eng+chi_sim". The choice is the chat's: kept on its
// ChatDocument (the chat file's "ocr_languages"), so it survives a restart; LoadedDocuments
// reads the document's scanned pages with the choice of the chat that shows it.

#include <QString>
#include <QStringList>

namespace folio::ui {

// The choices offered, "auto" first.
QStringList ocrLanguageChoices();

// `languages` when it is one of the choices, else "auto".
QString validOcrLanguages(const QString& languages);

} // namespace folio::ui
