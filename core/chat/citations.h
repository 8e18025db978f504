#pragma once
// Page citations in answers. With one document: "[p. 12]", "[page 12]", "[pp. 3–5]",
// "[pp. 3-5]", "[p. 3, 5]", "[pages 3-5]" (case-insensitive). With several documents the prompt
// asks for "[doc N, p. K]" (N is the document's place in the chat, 1-based); "[document N, p. K]"
// and "[report.pdf, p. K]" (a document's title or file name) are read too. A citation without a
// document takes the document of the citation before it in the same text, else the only
// document, else the only document that has the page. Pages that do not exist in their document
// are not links, and nothing inside code (``` fences, `inline code`) is a citation. The grammar
// is read in one place, folio_figures' find_citations (core/figures/citations.h); this is the
// workbench's Qt face of it, with the links and the cited documents' bookkeeping.

#include <QList>
#include <QString>

#include <functional>

namespace folio::ui {

// What a citation can point at: one document of the chat, in prompt order.
struct CitationDocument {
    QString title;
    QString fileName; // e.g. "report.pdf" ("" when not known)
    int pageCount = 0;
    QString fingerprint = {}; // the document's contents ("" when not known)
    bool operator==(const CitationDocument& other) const = default;
};

// A document an answer could cite, as the chat had it when the answer was asked for.
struct CitedDocument {
    QString fingerprint; // the document's contents (ChatDocument::fingerprint)
    QString title;
    int pageCount = 0;
    bool operator==(const CitedDocument& other) const = default;
};

// What citations resolve against: documents in "doc N" order, and each one's row among the
// chat's documents (kRemovedDocument: it has left the chat).
struct CitationTargets {
    QList<CitationDocument> documents;
    QList<int> rows;
    bool operator==(const CitationTargets& other) const = default;
};

// An answer's targets: its cited documents (its "doc N" order) found among the chat's documents
// now (`current`), by fingerprint; one that has left the chat keeps the title and pages it had,
// with row kRemovedDocument. An answer that recorded none (saved before) gets `current`.
CitationTargets resolveCitedDocuments(const QList<CitedDocument>& cited,
                                      const CitationTargets& current);

// One citation found in a text.
struct Citation {
    qsizetype start = 0;  // of the "[" in the text
    qsizetype length = 0; // through the "]"
    int document = -1;    // index into the documents (0-based); -1: could not be resolved
    // Each item as written: a page or a range (first, last); "[p. 3, 5]" has two items.
    QList<QPair<int, int>> items;
    // The pages named, in order, ranges expanded (at most 1000 per citation).
    QList<int> pages() const;
};

// Every citation of `text` outside code, resolved against `documents` (may be empty: then no
// citation has a document and no page is checked).
QList<Citation> findCitations(const QString& text, const QList<CitationDocument>& documents);

// Returns `markdown` with the pages of each resolved citation turned into Markdown links whose
// target is url(document, firstPageOfItem); the visible text is unchanged ("[p. 3, 5]" becomes
// "[p. 3, 5]" with "3" and "5" each a link; a single item makes the whole citation the link).
// Items whose pages are beyond their document's last page, or whose url is "", stay plain text.
QString linkCitations(const QString& markdown, const QList<CitationDocument>& documents,
                      const std::function<QString(int document, int page)>& url);

// Without documents: every citation's first page becomes a link to `urlPattern` with "%1"
// replaced by the page (no document, no page check).
QString linkCitations(const QString& markdown, const QString& urlPattern);
// The cited page numbers in order of appearance (duplicates kept; ranges expanded; no document
// is resolved).
QList<int> citedPages(const QString& text);
// The page of a link made by linkCitations with the pattern "folio:page/%1", else 0.
int pageFromCitationUrl(const QString& url);

inline constexpr const char* kCitationUrlPattern = "folio:page/%1";

// The transcript's citation links: "folio:cite/<document>/<page>" (document 0-based; -1: a
// citation that names no document; kRemovedDocument: one whose document left the chat).
inline constexpr int kRemovedDocument = -2;
QString citationUrl(int document, int page);
// True for a link made by citationUrl, with its document and page.
bool citationFromUrl(const QString& url, int* document, int* page);

} // namespace folio::ui
