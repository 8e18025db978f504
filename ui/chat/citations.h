#pragma once
// Page citations in answers: "[p. 12]", "[page 12]", "[pp. 12]" (case-insensitive).

#include <QList>
#include <QString>

namespace folio::ui {

// Returns `markdown` with every citation turned into a Markdown link whose target is
// `urlPattern` with "%1" replaced by the page number; the visible text stays "[p. 12]".
QString linkCitations(const QString& markdown, const QString& urlPattern);
// The cited page numbers in order of appearance (duplicates kept).
QList<int> citedPages(const QString& text);
// The page of a link made by linkCitations with the pattern "folio:page/%1", else 0.
int pageFromCitationUrl(const QString& url);

inline constexpr const char* kCitationUrlPattern = "folio:page/%1";

} // namespace folio::ui
