#include "doc_cache/document_prefix.h"

#include "core/pipeline/page_images.h"
#include "core/pipeline/page_sources.h"
#include "core/pipeline/prompt_builder.h"

namespace folio::ui {

namespace {

// One field of every document, in order.
QStringList eachDocument(const QList<PrefixDocument>& documents, QString PrefixDocument::*field) {
    QStringList out;
    for (const PrefixDocument& d : documents)
        out << d.*field;
    return out;
}

} // namespace

QStringList DocumentPrefix::fingerprints() const {
    return eachDocument(documents, &PrefixDocument::fingerprint);
}

QStringList DocumentPrefix::titles() const {
    return eachDocument(documents, &PrefixDocument::title);
}

QStringList DocumentPrefix::cacheIds() const {
    return eachDocument(documents, &PrefixDocument::cacheId);
}

QStringList DocumentPrefix::imageFiles() const {
    QStringList out;
    if (!documents.isEmpty())
        for (const PrefixPageImage& image : documents.last().images)
            out << image.file;
    return out;
}

DocumentPrefix documentPrefix(const QString& systemPrompt, const QList<Document>& documents,
                              const PrefixImageOptions& options) {
    DocumentPrefix prefix;
    prefix.renderParams = options.params;
    prefix.pageImageDir = options.dir;
    QList<SourceDocument> sources;
    QList<PrefixPageImage> images;
    int number = 0; // labelled as conversation_prompt labels them: the chat's PDFs in order
    for (const Document& d : documents) {
        if (d.kind != Document::Kind::Pdf)
            continue;
        ++number;
        if (d.state != Document::State::Ready)
            continue;
        SourceDocument source{d.title, d.pageTexts, false, {}, number};
        // The same rule as planPrompt's: scanned pages as images with a projector, unless the
        // document's switch is off. (A page whose render fails there goes without its image;
        // the reader then stops, so no prefix is cached that the question would not match.)
        if (options.readScannedPages && !options.off.contains(d.path))
            for (int page : pagesAsImages(d)) {
                const QString file =
                    pageImagePath(d.fingerprint, page, options.params, options.dir);
                source.pageImages.insert(page + 1, PageImage{file, 0});
                images.append({d.path, d.fingerprint, page, file});
            }
        QString cacheId = d.textKey();    // OCR text that arrives later makes another prefix
        if (!source.pageImages.isEmpty()) // never mixed up with a text-only snapshot
            cacheId += QStringLiteral("+images:%1:%2x%3-%4")
                           .arg(options.projector)
                           .arg(options.params.patchSize)
                           .arg(options.params.merge)
                           .arg(options.params.maxTokens);
        sources.append(source);
        prefix.documents.append(
            {d.fingerprint, d.title, buildSystemPrompt(systemPrompt, sources), images, cacheId});
    }
    prefix.systemTurn = buildSystemPrompt(systemPrompt, sources);
    return prefix;
}

} // namespace folio::ui
