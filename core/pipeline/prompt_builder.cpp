#include "core/pipeline/prompt_builder.h"

namespace folio::ui {

QString defaultSystemPrompt() {
    return QStringLiteral("You are Folio, an analyst's assistant. Answer from the documents below "
                          "and cite pages as [p. N].");
}

QString documentLabel(int number, const QString& title) {
    return QStringLiteral("[document %1: %2]\n").arg(number).arg(title);
}

QString pageBlock(int page, const QString& text) {
    return QStringLiteral("[page %1]\n%2\n").arg(page).arg(text.trimmed());
}

QString pageImageBlock(int page) {
    return QStringLiteral("[page %1]\n<__media__>\n").arg(page);
}

QString citationRule() {
    return QStringLiteral("Documents follow, each under [document N: title] with its pages as "
                          "[page K]; cite a page as [p. K], or as [doc N, p. K] when there are "
                          "several documents.\n");
}

QString partialDocumentNote() {
    return QStringLiteral("[only the pages marked below are included; the others were left out "
                          "to fit the context]\n");
}

namespace {

// The pages of a document as the prompt holds them, in order (1-based).
QList<int> pagesIn(const SourceDocument& doc) {
    QList<int> pages;
    if (!doc.somePages) {
        for (int i = 1; i <= doc.pageTexts.size(); ++i)
            pages << i;
    } else {
        for (int page : doc.pageNumbers)
            if (page >= 1 && page <= doc.pageTexts.size())
                pages << page;
    }
    return pages;
}

} // namespace

QString documentContext(const QList<SourceDocument>& documents) {
    QString context;
    if (!documents.isEmpty())
        context += citationRule();
    for (qsizetype d = 0; d < documents.size(); ++d) {
        const SourceDocument& doc = documents[d];
        context += documentLabel(doc.number > 0 ? doc.number : int(d + 1), doc.title);
        if (doc.somePages)
            context += partialDocumentNote();
        for (int page : pagesIn(doc))
            context += doc.pageImages.contains(page) ? pageImageBlock(page)
                                                     : pageBlock(page, doc.pageTexts[page - 1]);
    }
    return context;
}

QStringList documentImages(const QList<SourceDocument>& documents) {
    QStringList images;
    for (const SourceDocument& doc : documents)
        for (int page : pagesIn(doc))
            if (auto it = doc.pageImages.constFind(page); it != doc.pageImages.cend())
                images << it->path;
    return images;
}

QString buildSystemPrompt(const QString& systemPrompt, const QList<SourceDocument>& documents) {
    const QString docs = documentContext(documents);
    return docs.isEmpty() ? systemPrompt : systemPrompt + QStringLiteral("\n\n") + docs;
}

} // namespace folio::ui
