#pragma once
// The document prefix of a chat's prompts: its system turn (the system prompt followed by the
// documents, pipeline/prompt_builder buildSystemPrompt — the one function that makes it), and
// for each document the system turn cut after it, so it can be read one document at a time
// (each step reuses the ones before it, and adding a document at the end reuses them all).
// Scanned pages go in as images exactly as the question's prompt puts them
// (chat/conversation_prompt): same places, same files (pipeline/page_images).

#include "core/documents/document.h"
#include "core/pipeline/page_render.h"

#include <QList>
#include <QMetaType>
#include <QSet>
#include <QString>
#include <QStringList>

namespace folio::ui {

// A scanned page of the prefix: the reader renders it (off the GUI thread) before reading.
struct PrefixPageImage {
    QString pdfPath;
    QString fingerprint; // of the document
    int page = 0;        // 0-based
    QString file;        // pageImagePath(): where the render goes and the question finds it
};

struct PrefixDocument {
    QString fingerprint;
    QString title;
    QString systemThrough;         // the system turn with the documents up to this one
    QList<PrefixPageImage> images; // the system turn's images up to this one, in order
    // Identifies what this document's part of the prefix depends on besides its contents:
    // fingerprint alone, or with the projector and canvas rule when its pages are images.
    QString cacheId;
};

// How scanned pages go into the prompt (as PromptInput says for the question).
struct PrefixImageOptions {
    bool readScannedPages = false; // the embedded engine has a vision projector
    QString projector;             // its fingerprint (part of the cache key)
    QSet<QString> off;             // documents (paths) whose scanned pages stay out
    PageRenderParams params = {};
    QString dir = {}; // rendered pages (page_images.h defaultPageImageDir)
};

struct DocumentPrefix {
    QString systemTurn; // exactly the system turn of the chat's next question
    QList<PrefixDocument> documents;
    PageRenderParams renderParams = {}; // how its page images are rendered, and where
    QString pageImageDir = {};
    bool isEmpty() const { return documents.isEmpty(); }
    QStringList fingerprints() const;
    QStringList titles() const;
    QStringList cacheIds() const;
    // The system turn's image files, in order.
    QStringList imageFiles() const;
    bool sameAs(const DocumentPrefix& other) const {
        return systemTurn == other.systemTurn && cacheIds() == other.cacheIds() &&
               imageFiles() == other.imageFiles();
    }
};

// The prefix of a chat with `systemPrompt` over `documents` (ready PDFs with text go in the
// system turn, in order; images go with the question, as conversation_prompt does). Cheap: no
// page is rendered here.
DocumentPrefix documentPrefix(const QString& systemPrompt, const QList<Document>& documents,
                              const PrefixImageOptions& images = {});

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::DocumentPrefix)
