#include "core/chat/message_figures.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>

namespace folio::ui {

namespace {
QString tr(const char* text, const char* disambiguation = nullptr, int n = -1) {
    // The context lupdate gives a tr() of a function in namespace folio::ui; with `n` it reads
    // a numerus form (tr's third argument, as lupdate expects it).
    return QCoreApplication::translate("folio::ui", text, disambiguation, n);
}
} // namespace

QString figureStateKey(CheckedFigure::State state) {
    switch (state) {
    case CheckedFigure::State::Verified:
        return QStringLiteral("verified");
    case CheckedFigure::State::OtherPage:
        return QStringLiteral("other_page");
    case CheckedFigure::State::NotFound:
        return QStringLiteral("not_found");
    case CheckedFigure::State::Uncited:
        break;
    }
    return QStringLiteral("uncited");
}

bool figureStateFromKey(const QString& key, CheckedFigure::State& out) {
    for (CheckedFigure::State s : {CheckedFigure::State::Verified, CheckedFigure::State::OtherPage,
                                   CheckedFigure::State::NotFound, CheckedFigure::State::Uncited})
        if (figureStateKey(s) == key) {
            out = s;
            return true;
        }
    return false;
}

QString figureGlyph(CheckedFigure::State state) {
    switch (state) {
    case CheckedFigure::State::Verified:
        return QStringLiteral("✓");
    case CheckedFigure::State::OtherPage:
        return QStringLiteral("⚠");
    case CheckedFigure::State::NotFound:
        return QStringLiteral("✗");
    case CheckedFigure::State::Uncited:
        break;
    }
    return QStringLiteral("?");
}

QString figureStateLabel(CheckedFigure::State state) {
    switch (state) {
    case CheckedFigure::State::Verified:
        return tr("verified");
    case CheckedFigure::State::OtherPage:
        return tr("on another page");
    case CheckedFigure::State::NotFound:
        return tr("not found");
    case CheckedFigure::State::Uncited:
        break;
    }
    return tr("no citation");
}

FigureTally tallyFigures(const QList<CheckedFigure>& figures) {
    FigureTally t;
    for (const CheckedFigure& f : figures) {
        switch (f.state) {
        case CheckedFigure::State::Verified:
            ++t.verified;
            break;
        case CheckedFigure::State::OtherPage:
            ++t.otherPage;
            break;
        case CheckedFigure::State::NotFound:
            ++t.notFound;
            break;
        case CheckedFigure::State::Uncited:
            ++t.uncited;
            break;
        }
    }
    return t;
}

QString figuresLine(const QList<CheckedFigure>& figures) {
    const FigureTally t = tallyFigures(figures);
    if (t.total() == 0)
        return {};
    // Each part is a whole phrase with its number (plural forms per language).
    QStringList parts;
    if (t.verified > 0)
        parts << tr("%n verified", nullptr, t.verified);
    if (t.otherPage > 0)
        parts << tr("%n on another page", nullptr, t.otherPage);
    if (t.notFound > 0)
        parts << tr("%n not found", nullptr, t.notFound);
    if (t.uncited > 0)
        parts << tr("%n uncited", nullptr, t.uncited);
    return tr("Figures: %1").arg(parts.join(QStringLiteral(" · ")));
}

QString withMarkAfterEachFigure(const QString& text, const QList<CheckedFigure>& figures,
                                const std::function<QString(qsizetype figure)>& mark) {
    // From the last figure back, so that the earlier ones' offsets still hold.
    QList<qsizetype> order;
    for (qsizetype k = 0; k < figures.size(); ++k)
        if (figureStandsIn(figures[k], text))
            order << k;
    std::sort(order.begin(), order.end(), [&figures](qsizetype a, qsizetype b) {
        return figures[a].offset > figures[b].offset;
    });
    QString out = text;
    qsizetype limit = text.size(); // figures that overlap a later one keep no mark
    for (qsizetype k : order) {
        const CheckedFigure& f = figures[k];
        const qsizetype end = f.offset + f.length;
        if (end > limit)
            continue;
        out.insert(end, mark(k));
        limit = f.offset;
    }
    return out;
}

bool figureStandsIn(const CheckedFigure& figure, const QString& text) {
    return figure.length > 0 && figure.offset >= 0 &&
           figure.offset + figure.length <= text.size() &&
           QStringView(text).mid(figure.offset, figure.length) == figure.figure;
}

} // namespace folio::ui
