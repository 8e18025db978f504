#pragma once
// The figures of an answer as the figure checker found them (issue #46 §2, core/figures): each
// number of the answer, its state and the page line that holds it. Kept on the answer's
// ChatMessage and in the chat file ("figures").

#include <QList>
#include <QString>

#include <functional>

namespace folio::ui {

struct CheckedFigure {
    enum class State { Verified, OtherPage, NotFound, Uncited };
    QString figure;       // as written in the answer
    qsizetype offset = 0; // where it is in the answer's text (QString index)
    qsizetype length = 0;
    State state = State::Uncited;
    int document = -1; // the cited document's place in the answer's "doc N" order (0-based)
    int page = 0;      // the cited page; 0: none
    int foundPage = 0; // where it was found (verified or other_page); 0: nowhere
    // A figure of an answer that queried data (the SQL tool) without a page citation is checked
    // against the query results: the result (0-based, among the answer's tool calls) that holds
    // it, kNotInResults when it was looked for and is in none, -1 when it was not looked for.
    // Its `line` is then the row ("region = Asia | revenue = 1,186.0").
    static constexpr int kNotInResults = -2;
    int table = -1;
    QString line;  // that page's line
    QString match; // the page's figure that matched, as the page writes it ("4,500"); may be ""
    bool operator==(const CheckedFigure& other) const = default;
};

// "verified" | "other_page" | "not_found" | "uncited" (the names of `folio-cli check-figures`).
QString figureStateKey(CheckedFigure::State state);
bool figureStateFromKey(const QString& key, CheckedFigure::State& out);

// The figure's mark: "✓" verified, "⚠" on another page, "✗" not found, "?" no citation (the
// transcript's and the exports' mark).
QString figureGlyph(CheckedFigure::State state);
// The state in words: "verified", "on another page", "not found", "no citation".
QString figureStateLabel(CheckedFigure::State state);

struct FigureTally {
    int verified = 0;
    int otherPage = 0;
    int notFound = 0;
    int uncited = 0;
    int total() const { return verified + otherPage + notFound + uncited; }
};
FigureTally tallyFigures(const QList<CheckedFigure>& figures);

// "Figures: 7 verified · 1 on another page · 2 not found · 1 uncited", only the parts that are
// not zero; empty without figures.
QString figuresLine(const QList<CheckedFigure>& figures);

// True when `figure` still stands where it was found in `text` (an edited text moves it).
bool figureStandsIn(const CheckedFigure& figure, const QString& text);

// `text` with `mark(k)` inserted right after each figure k that still stands in it (a figure
// overlapping a later one gets none): the transcript's links and the exports' glyphs.
QString withMarkAfterEachFigure(const QString& text, const QList<CheckedFigure>& figures,
                                const std::function<QString(qsizetype figure)>& mark);

} // namespace folio::ui
