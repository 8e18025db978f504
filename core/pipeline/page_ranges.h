#pragma once
// Page lists as people write them: "1-4, 37" in, "pages 1–4, 37–52, 118 of 236" out. Used for
// the pages pinned per document and for the pages a question's prompt held.

#include <QList>
#include <QString>

namespace folio::ui {

// The pages `text` names ("1-4, 37", "3", "1–4; 9"; '-' or an en dash, commas, semicolons or
// spaces between items), sorted and without duplicates. Empty text: no pages. Bad input ("0",
// "5-3", "x", a page beyond `pageCount`) gives no pages and, when `error` is given, says what is
// wrong and what to write instead.
QList<int> parsePageRanges(const QString& text, int pageCount, QString* error = nullptr);

// "1–4, 37–52, 118" (en dashes; sorted, duplicates dropped).
QString formatPageList(const QList<int>& pages);

// "pages 1–4, 37–52, 118 of 236", "page 3 of 8", "no pages of 8" (en dashes; `pages` may be
// unsorted or hold duplicates).
QString formatPageRanges(const QList<int>& pages, int pageCount);

} // namespace folio::ui
