#include "core/pipeline/page_sources.h"

#include "core/pipeline/page_ranges.h"
#include "core/pipeline/page_render.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("folio::ui::PageSources", text);
}

} // namespace

bool questionAboutLooks(const QString& question) {
    // Words about the page as a picture; "figure" is left out (an analyst's "figures" are
    // numbers).
    static const QRegularExpression english(
        QStringLiteral("\\b(look|looks|looked|looking|chart|charts|graph|graphs|diagram|"
                       "diagrams|picture|pictures|photo|photos|photograph|image|images|logo|"
                       "signature|signatures|signed|stamp|stamped|seal|handwriting|handwritten|"
                       "layout|colou?r|colou?rs|visual|visually|drawing|illustration|plot)\\b"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression chinese(QStringLiteral(
        "(图表|图片|图像|图形|照片|样子|外观|长什么|看起来|签名|签字|印章|盖章|公章|颜色|布局|"
        "版式|手写|示意图|曲线图|柱状图|饼图)"));
    return english.match(question).hasMatch() || chinese.match(question).hasMatch();
}

bool ocrPageIsPicture(const Document& document, int page) {
    const PageOrigin origin = document.origin(page);
    if (origin.source != PageOrigin::Source::Ocr)
        return false;
    return document.pageWords.value(page).size() < kMinOcrWordsForText ||
           origin.confidence < kMinOcrConfidenceForText;
}

QList<int> pagesAsImages(const Document& document, const QString& question) {
    QList<int> pages = pagesWithoutTextLayer(document);
    const bool looks = !question.isEmpty() && questionAboutLooks(question);
    for (int page : document.pagesWithSource(PageOrigin::Source::Ocr))
        if ((looks || ocrPageIsPicture(document, page)) && !pages.contains(page))
            pages << page;
    std::sort(pages.begin(), pages.end());
    return pages;
}

QList<int> pagesAsOcrText(const Document& document, const QList<int>& asImages) {
    QList<int> pages;
    for (int page : document.pagesWithSource(PageOrigin::Source::Ocr))
        if (!asImages.contains(page))
            pages << page;
    return pages;
}

QString pageSourcesNote(const QString& title, const Document& document, const QList<int>& ocrPages,
                        const QList<int>& imagePages) {
    QStringList parts;
    if (!ocrPages.isEmpty()) {
        double confidence = 0;
        for (int page : ocrPages)
            confidence += document.origin(page - 1).confidence;
        confidence /= ocrPages.size();
        const QString what = ocrPages.size() == 1
                                 ? tr("scanned page %1 as OCR text (mean confidence %2%)")
                                 : tr("scanned pages %1 as OCR text (mean confidence %2%)");
        parts << what.arg(formatPageList(ocrPages)).arg(qRound(confidence));
    }
    if (!imagePages.isEmpty())
        parts << (imagePages.size() == 1 ? tr("scanned page %1 as an image")
                                         : tr("scanned pages %1 as images"))
                     .arg(formatPageList(imagePages));
    if (parts.isEmpty())
        return {};
    const QString line = parts.join(QStringLiteral(" · "));
    return title.isEmpty() ? line : QStringLiteral("%1: %2").arg(title, line);
}

QString pageSourcesNote(const QList<DocumentPageSources>& documents,
                        const QList<DocumentPages>& included) {
    QStringList lines;
    for (qsizetype d = 0; d < documents.size() && d < included.size(); ++d) {
        QList<int> ocr, images;
        for (int page : documents[d].ocrPages)
            if (included[d].pages.contains(page))
                ocr << page;
        for (int page : documents[d].imagePages)
            if (included[d].pages.contains(page))
                images << page;
        const QString line = pageSourcesNote(included.size() > 1 ? included[d].title : QString(),
                                             documents[d].document, ocr, images);
        if (!line.isEmpty())
            lines << line;
    }
    return lines.join(QStringLiteral(" · "));
}

} // namespace folio::ui
