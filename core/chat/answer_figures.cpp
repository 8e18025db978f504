#include "core/chat/answer_figures.h"

#include "core/chat/figure_results.h"

#include "core/figures/check_figures.h"
#include "core/figures/citation_fix.h"
#include "core/figures/table_check.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QtConcurrent>

#include <algorithm>

namespace folio::ui {

namespace {

FigureSource sourceOf(const Document& d) {
    return {d.title, QFileInfo(d.path).fileName(),
            d.state == Document::State::Ready ? d.pageTexts : QStringList()};
}

figures::ResultTable resultTable(const MarkdownTable& t) {
    figures::ResultTable out;
    for (const QString& h : t.header)
        out.columns.push_back(h.toStdString());
    for (const QStringList& row : t.rows) {
        std::vector<std::string> cells;
        for (const QString& c : row)
            cells.push_back(c.toStdString());
        out.rows.push_back(std::move(cells));
    }
    return out;
}

// Figures with no page citation, looked for in the answer's query results (the first table that
// holds one wins); without any table nothing changes.
void checkAgainstTables(const QString& answer, const QList<MarkdownTable>& tables,
                        QList<CheckedFigure>& figures) {
    const bool any = std::any_of(tables.begin(), tables.end(),
                                 [](const MarkdownTable& t) { return !t.rows.isEmpty(); });
    if (!any)
        return;
    const std::string text = answer.toStdString();
    std::vector<std::vector<figures::FigureResult>> byTable; // every claim, per table
    for (const MarkdownTable& t : tables)
        byTable.push_back(t.rows.isEmpty()
                              ? std::vector<figures::FigureResult>{}
                              : figures::check_figures_against_table(text, resultTable(t)));
    for (CheckedFigure& f : figures) {
        if (f.state != CheckedFigure::State::Uncited)
            continue;
        f.state = CheckedFigure::State::NotFound; // checked against the results: not in them
        f.table = CheckedFigure::kNotInResults;
        const size_t byte = size_t(QStringView(answer).left(f.offset).toUtf8().size());
        for (size_t k = 0; k < byTable.size() && f.table < 0; ++k)
            for (const figures::FigureResult& r : byTable[k])
                if (r.offset == byte && r.state == figures::FigureState::Verified) {
                    f.state = CheckedFigure::State::Verified;
                    f.table = int(k);
                    f.line = QString::fromStdString(r.line);
                    break;
                }
    }
}

} // namespace

QList<FigureSource> figureSources(const ChatMessage& answer, const QList<Document>& documents) {
    QList<FigureSource> out;
    if (answer.citedDocuments.isEmpty()) {
        for (const Document& d : documents)
            if (d.kind == Document::Kind::Pdf)
                out.append(sourceOf(d));
        return out;
    }
    for (const CitedDocument& cited : answer.citedDocuments) {
        FigureSource source{cited.title, QString(), QStringList()}; // left the chat: no text
        for (const Document& d : documents)
            if (d.kind == Document::Kind::Pdf && !cited.fingerprint.isEmpty() &&
                d.fingerprint == cited.fingerprint) {
                source = sourceOf(d);
                break;
            }
        out.append(source);
    }
    return out;
}

QList<MarkdownTable> queryResults(const ChatMessage& answer) {
    QList<MarkdownTable> out;
    for (const ToolCallRecord& call : answer.toolCalls) {
        const TableParse parsed = call.ok ? parseMarkdownTable(call.result) : TableParse{};
        out.append(parsed.ok() ? parsed.table : MarkdownTable{});
    }
    return out;
}

QList<CheckedFigure> checkAnswerFigures(const QString& answer, const QList<FigureSource>& sources,
                                        const QList<MarkdownTable>& tables) {
    std::vector<figures::SourceDocument> documents;
    documents.reserve(size_t(sources.size()));
    for (const FigureSource& s : sources) {
        figures::SourceDocument d;
        d.title = s.title.toStdString();
        d.file_name = s.fileName.toStdString();
        d.pages.reserve(size_t(s.pages.size()));
        for (const QString& page : s.pages)
            d.pages.push_back(page.toStdString());
        documents.push_back(std::move(d));
    }
    const std::string text = answer.toStdString();
    std::vector<figures::FigureResult> results = figures::check_figures(text, documents);
    // Results come in the answer's order; the index walk needs ascending offsets.
    std::stable_sort(results.begin(), results.end(),
                     [](const auto& a, const auto& b) { return a.offset < b.offset; });
    Utf16Index index(text);
    QList<CheckedFigure> out;
    out.reserve(qsizetype(results.size()));
    for (const figures::FigureResult& r : results) {
        CheckedFigure f;
        f.figure = QString::fromStdString(r.figure);
        f.offset = index.at(r.offset);
        f.length = index.at(r.offset + r.length) - f.offset;
        f.state = checkedState(r.state);
        f.document = r.document;
        f.page = r.page;
        f.foundPage = r.found_page;
        f.line = QString::fromStdString(r.line);
        f.match = QString::fromStdString(r.match);
        out.append(f);
    }
    checkAgainstTables(answer, tables, out);
    return out;
}

QString answerWithCitationFixed(const QString& answer, const CheckedFigure& figure,
                                const QList<FigureSource>& sources) {
    if (figure.state != CheckedFigure::State::OtherPage || figure.foundPage < 1 ||
        !figureStandsIn(figure, answer))
        return {};
    std::vector<figures::CitationTarget> targets;
    for (const FigureSource& s : sources)
        targets.push_back({s.title.toStdString(), s.fileName.toStdString(), int(s.pages.size())});
    const std::string text = answer.toStdString();
    const size_t offset = size_t(answer.left(figure.offset).toUtf8().size());
    const auto fix = figures::citation_fix(text, targets, offset, figure.foundPage);
    if (!fix)
        return {};
    return QString::fromStdString(figures::apply_citation_fix(text, *fix));
}

void checkAnswerFiguresLater(QObject* context, const QString& answer,
                             const QList<FigureSource>& sources,
                             std::function<void(const QList<CheckedFigure>&)> done, qsizetype from,
                             qsizetype length, const QList<MarkdownTable>& tables) {
    auto* watcher = new QFutureWatcher<QList<CheckedFigure>>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, done = std::move(done)] {
                         watcher->deleteLater();
                         done(watcher->result());
                     });
    const qsizetype to = length < 0 ? answer.size() : from + length;
    watcher->setFuture(QtConcurrent::run([answer, sources, from, to, tables] {
        QList<CheckedFigure> kept;
        for (const CheckedFigure& f : checkAnswerFigures(answer, sources, tables))
            if (f.offset >= from && f.offset + f.length <= to)
                kept << f;
        return kept;
    }));
}

} // namespace folio::ui
