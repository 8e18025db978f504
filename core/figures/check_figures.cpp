#include "core/figures/check_figures.h"

#include "core/figures/match.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

namespace folio::figures {

namespace {

// Pages are read once, when first asked for.
class DocumentPages {
public:
    explicit DocumentPages(const SourceDocument& doc) : doc_(doc), pages_(doc.pages.size()) {}

    int count() const { return int(doc_.pages.size()); }
    const PageNumbers& page(int number) { // 1-based
        std::optional<PageNumbers>& p = pages_[size_t(number - 1)];
        if (!p)
            p = read_page(doc_.pages[size_t(number - 1)]);
        return *p;
    }

private:
    const SourceDocument& doc_;
    std::vector<std::optional<PageNumbers>> pages_;
};

struct Hit {
    int page = 0;
    std::string line;
    std::string match;
};

std::optional<Hit> look_on(DocumentPages& doc, int page, const NumberToken& claim) {
    if (page < 1 || page > doc.count())
        return std::nullopt;
    const PageNumbers& p = doc.page(page);
    const PageMatch m = find_on_page(claim, p);
    if (!m.found)
        return std::nullopt;
    return Hit{page, line_of(p, m.token), token_text(p, m.token)};
}

} // namespace

const char* state_name(FigureState state) {
    switch (state) {
    case FigureState::Verified:
        return "verified";
    case FigureState::OtherPage:
        return "other_page";
    case FigureState::NotFound:
        return "not_found";
    case FigureState::Uncited:
        return "uncited";
    }
    return "uncited";
}

std::vector<FigureResult> check_figures(std::string_view answer,
                                        const std::vector<SourceDocument>& documents) {
    std::vector<CitationTarget> targets;
    std::vector<DocumentPages> docs;
    docs.reserve(documents.size());
    for (const SourceDocument& d : documents) {
        targets.push_back({d.title, d.file_name, int(d.pages.size())});
        docs.emplace_back(d);
    }
    const AnswerFigures answer_figures = extract_figures(answer, targets);
    std::vector<FigureResult> out;
    for (const AnswerFigure& f : answer_figures.figures) {
        FigureResult r;
        r.figure = f.text;
        r.offset = f.offset;
        r.length = f.length;
        if (f.citations.empty()) {
            r.state = FigureState::Uncited;
            out.push_back(std::move(r));
            continue;
        }
        const Citation& primary = answer_figures.citations[f.citations.front()];
        const std::vector<int> primary_pages = primary.pages();
        r.page = primary_pages.empty() ? 0 : primary_pages.front();
        // The documents to look in: the citation's, or (not resolved) each that has the page.
        std::vector<int> candidates;
        if (primary.document >= 0)
            candidates.push_back(primary.document);
        else
            for (int d = 0; d < int(docs.size()); ++d)
                if (r.page >= 1 && r.page <= docs[size_t(d)].count())
                    candidates.push_back(d);
        r.state = FigureState::NotFound;
        r.document = candidates.size() == 1 ? candidates.front() : primary.document;
        bool done = false;
        // The cited pages, best citation first.
        for (int d : candidates) {
            for (size_t ci : f.citations) {
                const Citation& c = answer_figures.citations[ci];
                if (c.document != primary.document)
                    continue;
                for (int page : c.pages()) {
                    if (auto hit = look_on(docs[size_t(d)], page, f.number)) {
                        r.state = FigureState::Verified;
                        r.document = d;
                        r.page = page;
                        r.found_page = page;
                        r.line = hit->line;
                        r.match = hit->match;
                        done = true;
                        break;
                    }
                }
                if (done)
                    break;
            }
            if (done)
                break;
        }
        // Elsewhere in the document: the nearest page to the cited one.
        for (size_t k = 0; !done && k < candidates.size(); ++k) {
            const int d = candidates[k];
            DocumentPages& doc = docs[size_t(d)];
            std::vector<int> order(size_t(doc.count()));
            for (int p = 1; p <= doc.count(); ++p)
                order[size_t(p - 1)] = p;
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
                return std::abs(a - r.page) < std::abs(b - r.page);
            });
            for (int p : order) {
                if (auto hit = look_on(doc, p, f.number)) {
                    r.state = FigureState::OtherPage;
                    r.document = d;
                    r.found_page = p;
                    r.line = hit->line;
                    r.match = hit->match;
                    done = true;
                    break;
                }
            }
        }
        out.push_back(std::move(r));
    }
    return out;
}

FigureCounts count_figures(const std::vector<FigureResult>& results) {
    FigureCounts c;
    for (const FigureResult& r : results) {
        switch (r.state) {
        case FigureState::Verified:
            ++c.verified;
            break;
        case FigureState::OtherPage:
            ++c.other_page;
            break;
        case FigureState::NotFound:
            ++c.not_found;
            break;
        case FigureState::Uncited:
            ++c.uncited;
            break;
        }
    }
    return c;
}

std::string figures_count_line(const FigureCounts& c) {
    return "Figures: " + std::to_string(c.verified) + " verified · " +
           std::to_string(c.other_page) + " on another page · " + std::to_string(c.not_found) +
           " not found · " + std::to_string(c.uncited) + " uncited";
}

} // namespace folio::figures
