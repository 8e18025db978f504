#include "core/pipeline/page_ranges.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>

namespace folio::ui {

namespace {
QString tr(const char* text) {
    // The context lupdate gives a tr() of a function in namespace folio::ui.
    return QCoreApplication::translate("folio::ui", text);
}

QList<int> sortedUnique(QList<int> pages) {
    std::sort(pages.begin(), pages.end());
    pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
    return pages;
}
} // namespace

QList<int> parsePageRanges(const QString& text, int pageCount, QString* error) {
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    static const QRegularExpression item(QStringLiteral("^(\\d{1,9})(?:[-\u2013](\\d{1,9}))?$"));
    // Spaces around a dash belong to the range ("1 - 4").
    QString normalized = text;
    normalized.replace(QRegularExpression(QStringLiteral("\\s*([-\u2013])\\s*")),
                       QStringLiteral("\\1"));
    QList<int> pages;
    auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return QList<int>();
    };
    for (const QString& part : normalized.split(separators, Qt::SkipEmptyParts)) {
        const QRegularExpressionMatch m = item.match(part);
        if (!m.hasMatch())
            return fail(
                tr("\"%1\" is not a page or a range: write pages like \"1-4, 37\".").arg(part));
        const int first = m.captured(1).toInt();
        const int last = m.captured(2).isEmpty() ? first : m.captured(2).toInt();
        if (first < 1)
            return fail(tr("Pages start at 1: \"%1\" names page 0.").arg(part));
        if (last < first)
            return fail(
                tr("The range \"%1\" runs backwards: write the lower page first.").arg(part));
        if (last > pageCount)
            return fail(tr("Page %1 is beyond the document's %2 pages.").arg(last).arg(pageCount));
        for (int p = first; p <= last; ++p)
            pages << p;
    }
    if (error)
        error->clear();
    return sortedUnique(pages);
}

QString formatPageList(const QList<int>& pages) {
    const QList<int> sorted = sortedUnique(pages);
    QStringList ranges;
    for (qsizetype i = 0; i < sorted.size();) {
        qsizetype j = i;
        while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1)
            ++j;
        ranges << (j == i ? QString::number(sorted[i])
                          : QStringLiteral("%1\u2013%2").arg(sorted[i]).arg(sorted[j]));
        i = j + 1;
    }
    return ranges.join(QStringLiteral(", "));
}

QString formatPageRanges(const QList<int>& pages, int pageCount) {
    const QList<int> sorted = sortedUnique(pages);
    if (sorted.isEmpty())
        return tr("no pages of %1").arg(pageCount);
    const QString list = formatPageList(sorted);
    return sorted.size() == 1 ? tr("page %1 of %2").arg(list).arg(pageCount)
                              : tr("pages %1 of %2").arg(list).arg(pageCount);
}

} // namespace folio::ui
