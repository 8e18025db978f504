#include "chat/citations.h"

#include <QRegularExpression>

namespace folio::ui {

namespace {
const QRegularExpression& citationPattern() {
    static const QRegularExpression re(QStringLiteral(R"(\[(?:pp?\.|page)\s*(\d{1,5})\])"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re;
}
} // namespace

QString linkCitations(const QString& markdown, const QString& urlPattern) {
    QString out;
    out.reserve(markdown.size() + 64);
    qsizetype last = 0;
    auto it = citationPattern().globalMatch(markdown);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        // Leave citations that are already link text ("[p. 3](...)") alone.
        if (m.capturedEnd() < markdown.size() && markdown.at(m.capturedEnd()) == QLatin1Char('('))
            continue;
        out += QStringView(markdown).mid(last, m.capturedStart() - last);
        const QString label = m.captured(0).mid(1, m.capturedLength() - 2);
        out += QStringLiteral("[\\[%1\\]](%2)").arg(label, urlPattern.arg(m.captured(1)));
        last = m.capturedEnd();
    }
    out += QStringView(markdown).mid(last);
    return out;
}

QList<int> citedPages(const QString& text) {
    QList<int> pages;
    auto it = citationPattern().globalMatch(text);
    while (it.hasNext())
        pages << it.next().captured(1).toInt();
    return pages;
}

int pageFromCitationUrl(const QString& url) {
    const QString prefix = QString::fromLatin1(kCitationUrlPattern).section(QLatin1Char('%'), 0, 0);
    if (!url.startsWith(prefix))
        return 0;
    bool ok = false;
    const int page = url.mid(prefix.size()).toInt(&ok);
    return ok ? page : 0;
}

} // namespace folio::ui
