#pragma once
// The prompt of a question about documents, shared by the workbench and `folio-cli summarize`:
// the chat's system prompt followed by the documents in the chat's order, each labelled
// "[document N: title]" with "[page K]" markers (K the real page number, also when only some
// pages go in), so answers can cite pages as "[p. K]" — or "[doc N, p. K]" with several
// documents. For the same documents and pages the text is the same byte for byte: it is the
// prefix the engine's cache reuses from question to question.

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace folio::ui {

// A page that goes into the prompt as an image (a scanned page, read by the vision projector):
// its rendered file and the image's tokens (canvas cells, page_render.h).
struct PageImage {
    QString path;
    int tokens = 0;
};

struct SourceDocument {
    QString title;
    QStringList pageTexts;
    // true: only `pageNumbers` (1-based, ascending) go into the prompt, after the line of
    // partialDocumentNote(); false: every page.
    bool somePages = false;
    QList<int> pageNumbers = {};
    // The N of its label "[document N: title]": its place among the chat's PDFs, which
    // citations "[doc N, p. K]" count too (a missing PDF keeps its number). 0: its place here.
    int number = 0;
    // Pages (1-based) that go in as images at their place: "[page K]\n<__media__>\n".
    QHash<int, PageImage> pageImages = {};
};

// "You are Folio, an analyst's assistant. ... cite pages as [p. N]."
QString defaultSystemPrompt();
QString buildSystemPrompt(const QString& systemPrompt, const QList<SourceDocument>& documents);
// "[document 1: T]\n[page 1]\n...\n[page 2]\n..." for every document, after the line of
// citationRule() (always there, also for one document: the text of the first documents stays
// a prefix when more are added, so their cache is reused).
QString documentContext(const QList<SourceDocument>& documents);
// The label line of a document: "[document N: title]\n" (N 1-based).
QString documentLabel(int number, const QString& title);
// One page as the prompt holds it: "[page K]\n<trimmed text>\n".
QString pageBlock(int page, const QString& text);
// A page that goes in as an image: "[page K]\n<__media__>\n" (the engine puts the image at
// the marker, tokenizer/media_prompt.h).
QString pageImageBlock(int page);
// The image files of the pages documentContext writes as images, in the order it writes them
// (the images of the system turn).
QStringList documentImages(const QList<SourceDocument>& documents);
// "[only the pages marked below are included; the others were left out to fit the context]\n"
QString partialDocumentNote();
// "Documents follow, each under [document N: title] with its pages as [page K]; cite a page as
// [p. K], or as [doc N, p. K] when there are several documents."
QString citationRule();

} // namespace folio::ui
