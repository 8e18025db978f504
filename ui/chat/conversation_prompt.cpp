#include "chat/conversation_prompt.h"

#include "chat/context_fit.h"
#include "core/chat/citations.h"
#include "core/pipeline/page_images.h"
#include "core/pipeline/page_ranges.h"
#include "core/pipeline/page_sources.h"
#include "core/pipeline/prompt_builder.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace folio::ui {

namespace {
QString tr(const char* text) {
    // The context lupdate gives a tr() of a function in namespace folio::ui.
    return QCoreApplication::translate("folio::ui", text);
}
} // namespace

QString contextNoteFor(const QList<DocumentPages>& pages, const QList<int>& droppedMessages,
                       const QList<ScannedLeftOut>& scannedLeftOut) {
    QStringList parts;
    bool partial = false;
    for (const DocumentPages& d : pages)
        partial = partial || !d.all();
    if (partial) {
        for (const DocumentPages& d : pages) {
            const QString list = d.explained();
            parts << (pages.size() > 1 ? QStringLiteral("%1: %2").arg(d.title, list) : list);
        }
    }
    for (qsizetype d = 0; d < scannedLeftOut.size() && d < pages.size(); ++d) {
        const ScannedLeftOut& left = scannedLeftOut[d];
        if (left.pages.isEmpty())
            continue;
        const QString list = formatPageList(left.pages);
        const QString what = left.pages.size() == 1 ? tr("scanned page %1 left out: %2")
                                                    : tr("scanned pages %1 left out: %2");
        const QString line = what.arg(list, left.reason);
        parts << (pages.size() > 1 ? QStringLiteral("%1: %2").arg(pages[d].title, line) : line);
    }
    if (!droppedMessages.isEmpty())
        parts << (droppedMessages.size() == 1
                      ? tr("1 earlier turn left out")
                      : tr("%1 earlier turns left out").arg(droppedMessages.size()));
    return parts.join(QStringLiteral(" · "));
}

PromptPlan planPrompt(const PromptInput& in, const TokenCounter& counter, PageTokenCache& cache) {
    FitInput fit;
    fit.systemPrompt = in.chat.systemPrompt;
    fit.contextLimit = in.contextLimit;
    fit.answerTokens = in.chat.settings.maxTokens;
    QStringList images;
    QList<ScannedLeftOut> scanned;      // per document of fit.documents
    QList<DocumentPageSources> sources; // per document: pages as OCR text, as images
    int pdfNumber = 0;                  // the chat's PDFs are numbered as citations count them
    QList<int> fitIndexOfNumber;        // PDF number - 1 -> index in fit.documents (-1: not ready)
    for (const Document& d : in.documents) {
        if (d.kind == Document::Kind::Pdf) {
            ++pdfNumber;
            fitIndexOfNumber << (d.state == Document::State::Ready ? int(fit.documents.size())
                                                                   : -1);
        }
        if (d.state != Document::State::Ready)
            continue;
        if (d.kind == Document::Kind::Pdf) {
            PageSource source{d.title, d.pageTexts, in.pinnedPages.value(d.path), d.fingerprint,
                              pdfNumber};
            ScannedLeftOut left;
            const QList<int> asImages = pagesAsImages(d, in.question);
            DocumentPageSources how{d, {}, {}};
            for (int page : pagesAsOcrText(d, asImages))
                how.ocrPages << page + 1;
            for (int page : asImages) {
                if (d.origin(page).source == PageOrigin::Source::Ocr &&
                    (!in.readScannedPages || in.scannedPagesOff.contains(d.path))) {
                    how.ocrPages << page + 1; // its OCR text, without a picture of it
                    continue;
                }
                if (!in.readScannedPages) {
                    left.pages << page + 1;
                    left.reason = tr("no vision projector is loaded");
                    continue;
                }
                if (in.scannedPagesOff.contains(d.path)) {
                    left.pages << page + 1;
                    left.reason = tr("reading scanned pages as images is off for this document");
                    continue;
                }
                const PageImageResult image =
                    scannedPageImage(d.path, d.fingerprint, page, in.renderParams, in.pageImageDir);
                if (image.ok()) {
                    source.pageImages.insert(page + 1, image.image);
                    how.imagePages << page + 1;
                } else {
                    left.pages << page + 1;
                    left.reason = image.error;
                }
            }
            fit.documents.append(source);
            scanned.append(left);
            sources.append(how);
        }
        // Images opened as documents go only with the questions they are attached to.
    }
    const QList<ChatMessage>& messages = in.chat.messages;
    qsizetype before = messages.size();
    int imagesLeftOut = 0;
    if (before > 0 && messages.last().role == ChatMessage::Role::User) {
        --before; // the question, with the images attached to it (only these go)
        for (const QuestionImage& image : messages.last().images) {
            if (in.acceptsImages)
                images << image.file;
            else
                ++imagesLeftOut;
        }
    }
    QList<int> turnMessage; // the message of each history turn
    // Pages cited in earlier answers, per document of the prompt: "[doc 2, p. 5]" resolved as
    // the transcript resolves it (citations.h), against the chat's PDFs in order.
    QList<CitationDocument> citable;
    for (const Document& d : in.documents)
        if (d.kind == Document::Kind::Pdf)
            citable.append({d.title, QFileInfo(d.path).fileName(), int(d.pageTexts.size())});
    QList<QList<int>> cited(fit.documents.size());
    for (qsizetype i = 0; i < before; ++i) {
        const ChatMessage& m = messages[i];
        if (m.role == ChatMessage::Role::User) {
            fit.history.append({QStringLiteral("user"), m.text, {}});
            turnMessage << int(i);
        } else if (m.role == ChatMessage::Role::Assistant && !m.text.isEmpty()) {
            fit.history.append({QStringLiteral("assistant"), m.text, {}});
            turnMessage << int(i);
            for (const Citation& c : findCitations(m.text, citable)) {
                const int at = c.document >= 0 ? fitIndexOfNumber.value(c.document, -1) : -1;
                if (at >= 0)
                    cited[at] << c.pages();
            }
        }
    }
    fit.citedPages = cited;
    fit.question = {QStringLiteral("user"), in.question, images};

    const FitResult r = fitToContext(fit, counter, cache);
    PromptPlan plan;
    plan.exact = counter.exact();
    plan.error = r.error;
    if (!r.error.isEmpty())
        return plan;
    plan.turns = r.turns;
    plan.droppedTurns = r.droppedTurns;
    plan.droppedMessages = turnMessage.mid(0, r.droppedTurns);
    plan.pages = r.pages.documents;
    plan.promptTokens = r.promptTokens;
    for (const ChatTurn& t : plan.turns)
        plan.characters += t.content.size();
    // Scanned pages without their image are named only when their page went in.
    for (qsizetype d = 0; d < scanned.size() && d < plan.pages.size(); ++d) {
        QList<int> in;
        for (int page : scanned[d].pages)
            if (plan.pages[d].pages.contains(page))
                in << page;
        scanned[d].pages = in;
    }
    if (!plan.turns.isEmpty())
        plan.pageImages = int(plan.turns.first().images.size());
    plan.contextNote = contextNoteFor(plan.pages, plan.droppedMessages, scanned);
    if (const QString how = pageSourcesNote(sources, plan.pages); !how.isEmpty())
        plan.contextNote =
            plan.contextNote.isEmpty() ? how : plan.contextNote + QStringLiteral(" · ") + how;
    if (imagesLeftOut > 0) {
        const QString line =
            imagesLeftOut == 1
                ? tr("the attached image left out: the model cannot see images")
                : tr("%1 attached images left out: the model cannot see images").arg(imagesLeftOut);
        plan.contextNote =
            plan.contextNote.isEmpty() ? line : plan.contextNote + QStringLiteral(" · ") + line;
    }
    return plan;
}

} // namespace folio::ui
