#include "core/pipeline/summary_plan.h"

#include "core/pipeline/eta.h"

#include "core/pipeline/page_ranges.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cmath>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    // The context lupdate gives a tr() of a function in namespace folio::ui.
    return QCoreApplication::translate("folio::ui", text);
}

// Kept free in every prompt: counting a prompt's pieces separately can differ by a few tokens
// from counting the whole (BPE merges across the joins).
constexpr qint64 kSlack = 8;
// The fewest tokens of document text a part's prompt must have room for.
constexpr qint64 kMinRoom = 32;
// A decoded token costs about as much time as this many prompt tokens (the ETA's work unit;
// the demo model's prefill and decode rates, docs/NUMERICS.md).
constexpr qint64 kDecodeWeight = 10;
// "piece 999 of 999": the longest label a piece can get, counted while the pieces are cut.
constexpr int kLabelPieces = 999;

struct Frame {
    qint64 budget = 0; // prompt tokens of one request
    int maxTokens = 0; // answer tokens of one request
};

Frame frameOf(const SummaryOptions& o) {
    Frame f;
    f.maxTokens =
        int(std::clamp<qint64>(o.answerTokens, 1, std::max<qint64>(1, o.contextTokens / 2)));
    f.budget = o.contextTokens - f.maxTokens;
    return f;
}

QString summaryPageBlock(int page, const QString& text) {
    const QString t = text.trimmed();
    return QStringLiteral("[page %1]\n%2\n")
        .arg(page)
        .arg(t.isEmpty() ? QStringLiteral("(a scanned page: no text layer)") : t);
}

// A page of a part: a scanned page with its rendered image goes in as an image at its place
// (the Kimi-VL template puts the system turn's images at its media markers), else its text.
QString partPageBlock(const SummaryOptions& o, int page) {
    if (o.pageImages.contains(page))
        return pageImageBlock(page);
    return summaryPageBlock(page, o.pageTexts[page - 1]);
}

// The images of the pages first..last that go in as images, in page order.
QStringList partPageImages(const SummaryOptions& o, int first, int last) {
    QStringList out;
    for (int p = first; p <= last; ++p)
        if (o.pageImages.contains(p))
            out << o.pageImages.value(p).path;
    return out;
}

QString pieceBlock(int page, int piece, int pieces, const QString& text) {
    return QStringLiteral("[page %1, piece %2 of %3]\n%4\n")
        .arg(page)
        .arg(piece)
        .arg(pieces)
        .arg(text);
}

// The frames are short on purpose: with a small context every token of the frame is a token
// less of document per part.
QList<ChatTurn> partTurns(const SummaryOptions& o, int first, int last, int piece, int pieces,
                          const QString& body, const QStringList& images) {
    const QString system =
        QStringLiteral("Summarize the document below.\n\n[document: %1]\n%2").arg(o.title, body);
    const QString question =
        QStringLiteral("Summarize %1 (of %2) as short Markdown bullets; cite pages as [p. N].")
            .arg(summaryRangeText(first, last, piece, pieces))
            .arg(o.pageTexts.size());
    // Whole pages (not pieces) with a body: their scanned pages' images go with the system turn.
    const QStringList pageImages =
        piece == 0 && !body.isEmpty() ? partPageImages(o, first, last) : QStringList();
    return {{QStringLiteral("system"), system, pageImages},
            {QStringLiteral("user"), question, images}};
}

// A summary to combine: the pages it covers and its text.
struct Item {
    int firstPage = 0, lastPage = 0, piece = 0, pieces = 0;
    QString text;
};

QString itemBlock(const Item& it) {
    QString range = summaryRangeText(it.firstPage, it.lastPage, it.piece, it.pieces);
    range[0] = range[0].toUpper();
    return QStringLiteral("### %1\n%2\n\n").arg(range, it.text.trimmed());
}

QList<ChatTurn> combineTurns(const SummaryOptions& o, const QString& blocks, int first, int last) {
    const QString system =
        QStringLiteral("Combine the part summaries into one summary; keep their citations [p. N].");
    const QString question =
        QStringLiteral("Summaries of consecutive parts of \"%1\", each headed by its pages:\n\n%2"
                       "Combine them into one summary of %3 as Markdown with short sections and "
                       "bullets; keep the citations [p. N].")
            .arg(o.title, blocks, summaryRangeText(first, last));
    return {{QStringLiteral("system"), system, {}}, {QStringLiteral("user"), question, {}}};
}

qint64 work(const SummaryRequest& r) {
    return r.promptTokens + kDecodeWeight * r.maxTokens;
}

// The stages after the current one and their work, estimated for `n` summaries of at most
// `itemTokens` each combined in prompts of `room` tokens with `overhead` for the frame.
int laterStages(int n, qint64 itemTokens, qint64 room, qint64 overhead, const Frame& f,
                qint64* workOut) {
    int stages = 0;
    qint64 w = 0;
    while (n > 1) {
        const qint64 perGroup = std::max<qint64>(2, room / std::max<qint64>(1, itemTokens));
        const int groups = int((n + perGroup - 1) / perGroup);
        w += qint64(n) * itemTokens + qint64(groups) * (overhead + kDecodeWeight * f.maxTokens);
        n = groups;
        ++stages;
    }
    if (workOut)
        *workOut = w;
    return stages;
}

// Cuts `text` at a word boundary near `chars` characters (never to nothing).
QString cutNear(const QString& text, qsizetype chars) {
    chars = std::clamp<qsizetype>(chars, 1, text.size());
    if (chars >= text.size())
        return text;
    const qsizetype space = text.lastIndexOf(QLatin1Char(' '), chars - 1);
    return text.left(space > chars / 2 ? space : chars);
}

// Splits a page longer than a prompt into pieces that fit, by characters.
QList<SummaryRequest> splitPage(const SummaryOptions& o, const TokenCounter& counter,
                                const Frame& f, int page) {
    const QString text = o.pageTexts[page - 1].trimmed();
    const double charsPerToken =
        double(text.size()) / double(std::max<qint64>(1, counter.text(text)));
    const qint64 frame =
        counter.prompt(partTurns(o, page, page, kLabelPieces, kLabelPieces,
                                 pieceBlock(page, kLabelPieces, kLabelPieces, QString()), {}));
    const qint64 room = std::max<qint64>(kMinRoom, f.budget - frame - kSlack);
    QStringList chunks;
    for (qsizetype pos = 0; pos < text.size();) {
        const QString rest = text.mid(pos);
        qsizetype len = qsizetype(double(room) * charsPerToken * 0.9);
        QString chunk = cutNear(rest, len);
        while (chunk.size() > 1 &&
               counter.prompt(partTurns(o, page, page, kLabelPieces, kLabelPieces,
                                        pieceBlock(page, kLabelPieces, kLabelPieces, chunk), {})) >
                   f.budget) {
            len = chunk.size() * 4 / 5;
            chunk = cutNear(rest, len);
        }
        chunks << chunk;
        pos += chunk.size();
    }
    QList<SummaryRequest> out;
    for (int i = 0; i < chunks.size(); ++i) {
        SummaryRequest r;
        r.firstPage = r.lastPage = page;
        r.piece = i + 1;
        r.pieces = int(chunks.size());
        r.turns = partTurns(o, page, page, r.piece, r.pieces,
                            pieceBlock(page, r.piece, r.pieces, chunks[i].trimmed()), {});
        r.promptTokens = counter.prompt(r.turns);
        r.maxTokens = f.maxTokens;
        out << r;
    }
    return out;
}

QString framesTooSmall(const SummaryOptions& o, const Frame& f, qint64 frame) {
    return tr("The context (%1 tokens) is too small for a summary: the prompt's frame takes %2 "
              "tokens and the answer %3. Use a larger context or fewer answer tokens.")
        .arg(o.contextTokens)
        .arg(frame)
        .arg(f.maxTokens);
}

// The combine requests of one stage: groups of consecutive items that fit one prompt. Items
// longer than `cap` tokens are cut (with a note) so that any two fit together.
QList<SummaryRequest> planCombine(const SummaryOptions& o, const TokenCounter& counter,
                                  const Frame& f, QList<Item>& items, int stage, qint64 cap,
                                  QList<QList<Item>>* groupsOut, QStringList* notes) {
    for (Item& it : items) {
        if (counter.text(itemBlock(it)) <= cap)
            continue;
        const double ratio = double(cap) / double(std::max<qint64>(1, counter.text(itemBlock(it))));
        QString text = it.text.trimmed();
        qsizetype len = qsizetype(double(text.size()) * ratio * 0.9);
        Item cut = it;
        do {
            cut.text = cutNear(text, len) + QStringLiteral(" …");
            len = len * 4 / 5;
        } while (len > 1 && counter.text(itemBlock(cut)) > cap);
        notes->append(tr("The summary of %1 was shortened to fit the prompt of stage %2.")
                          .arg(summaryRangeText(it.firstPage, it.lastPage, it.piece, it.pieces))
                          .arg(stage));
        it = cut;
    }
    const qint64 frame = counter.prompt(combineTurns(o, QString(), 1, int(o.pageTexts.size())));
    QList<SummaryRequest> out;
    groupsOut->clear();
    for (int s = 0; s < items.size();) {
        int e = s;
        qint64 sum = counter.text(itemBlock(items[s]));
        while (e + 1 < items.size()) {
            const qint64 next = counter.text(itemBlock(items[e + 1]));
            if (frame + sum + next + kSlack > f.budget)
                break;
            sum += next;
            ++e;
        }
        SummaryRequest r;
        for (;; --e) {
            QString blocks;
            for (int i = s; i <= e; ++i)
                blocks += itemBlock(items[i]);
            r.turns = combineTurns(o, blocks, items[s].firstPage, items[e].lastPage);
            r.promptTokens = counter.prompt(r.turns);
            if (r.promptTokens <= f.budget || e == s)
                break;
        }
        r.stage = stage;
        r.firstPage = items[s].firstPage;
        r.lastPage = items[e].lastPage;
        r.maxTokens = f.maxTokens;
        groupsOut->append(items.mid(s, e - s + 1));
        out << r;
        s = e + 1;
    }
    for (int i = 0; i < out.size(); ++i) {
        out[i].index = i;
        out[i].count = int(out.size());
    }
    return out;
}

QString failure(const SummaryRequest& r, const QString& why) {
    return tr("Stage %1, part %2 of %3 (%4) failed: %5")
        .arg(r.stage)
        .arg(r.index + 1)
        .arg(r.count)
        .arg(summaryRangeText(r.firstPage, r.lastPage, r.piece, r.pieces), why);
}

QString rangeListItem(const SummaryPart& p) {
    if (p.pieces > 0)
        return tr("%1 (piece %2 of %3)").arg(p.firstPage).arg(p.piece).arg(p.pieces);
    return p.firstPage == p.lastPage ? QString::number(p.firstPage)
                                     : QStringLiteral("%1–%2").arg(p.firstPage).arg(p.lastPage);
}

QString partsSection(const SummaryResult& r) {
    QStringList ranges;
    for (const SummaryPart& p : r.parts)
        ranges << rangeListItem(p);
    const int combines = r.stages - 1;
    QString md = QStringLiteral("## Parts\n\n");
    md += r.parts.size() == 1 ? tr("Read in 1 part") : tr("Read in %1 parts").arg(r.parts.size());
    // The same count of stages as the progress line and the end's message: all of them.
    if (combines > 0)
        md += combines == 1 ? tr(", combined once (2 stages)")
                            : tr(", combined in %1 rounds (%2 stages)").arg(combines).arg(r.stages);
    md += QStringLiteral(": ") + tr("pages %1.").arg(ranges.join(QStringLiteral(", ")));
    md += QStringLiteral("\n");
    for (const QString& note : r.notes)
        md += QStringLiteral("\n- ") + note;
    if (!r.notes.isEmpty())
        md += QStringLiteral("\n");
    return md;
}

} // namespace

QString summaryRangeText(int firstPage, int lastPage, int piece, int pieces) {
    if (pieces > 0)
        return tr("page %1 (piece %2 of %3)").arg(firstPage).arg(piece).arg(pieces);
    if (firstPage == lastPage)
        return tr("page %1").arg(firstPage);
    return tr("pages %1–%2").arg(firstPage).arg(lastPage);
}

QString formatSummaryProgress(const SummaryProgress& p) {
    QString eta;
    if (p.etaSeconds < 0)
        eta = tr("estimating the time left");
    else if (p.etaSeconds < 90)
        eta = tr("about %1 s left").arg(std::max(1, int(std::lround(p.etaSeconds))));
    else if (p.etaSeconds < 5400)
        eta = tr("about %1 min left").arg(int(std::lround(p.etaSeconds / 60)));
    else
        eta = tr("about %1 h %2 min left")
                  .arg(int(p.etaSeconds / 3600))
                  .arg(int(std::fmod(p.etaSeconds, 3600) / 60));
    if (p.stages <= 0)
        return tr("stage %1 · part %2 of %3 · %4 · %5")
            .arg(p.stage)
            .arg(p.part)
            .arg(p.parts)
            .arg(summaryRangeText(p.firstPage, p.lastPage, p.piece, p.pieces), eta);
    return tr("stage %1/%2 · part %3 of %4 · %5 · %6")
        .arg(p.stage)
        .arg(p.stages)
        .arg(p.part)
        .arg(p.parts)
        .arg(summaryRangeText(p.firstPage, p.lastPage, p.piece, p.pieces), eta);
}

QList<SummaryRequest> planSummaryParts(const SummaryOptions& options, const TokenCounter& counter,
                                       QString* error, QStringList* notes) {
    SummaryOptions o = options; // scanned pages whose image cannot fit go in as text
    error->clear();
    QStringList scratchNotes;
    if (!notes)
        notes = &scratchNotes;
    const int pages = int(o.pageTexts.size());
    if (pages == 0) {
        *error = tr("The document has no pages to summarize.");
        return {};
    }
    const Frame f = frameOf(o);
    const qint64 frame = counter.prompt(partTurns(o, 1, pages, 0, 0, QString(), {}));
    const qint64 combineFrame = counter.prompt(combineTurns(o, QString(), 1, pages));
    if (frame + kSlack + kMinRoom > f.budget || combineFrame + kSlack + 2 * kMinRoom > f.budget) {
        *error = framesTooSmall(o, f, std::max(frame, combineFrame));
        return {};
    }
    QStringList images = o.images;
    if (!images.isEmpty()) {
        const qint64 withImages = counter.prompt(partTurns(o, 1, 1, 0, 0, QString(), images));
        if (withImages + kSlack + kMinRoom > f.budget) {
            notes->append(tr("The images were left out: they do not fit one prompt."));
            images.clear();
        }
    }
    QList<qint64> cost;
    cost.reserve(pages);
    QList<int> imagesTooBig;
    for (int p = 1; p <= pages; ++p) {
        if (o.pageImages.contains(p)) {
            const qint64 c = counter.text(pageImageBlock(p)) + o.pageImages.value(p).tokens;
            if (frame + c + kSlack <= f.budget) {
                cost << c;
                continue;
            }
            o.pageImages.remove(p);
            imagesTooBig << p;
        }
        cost << counter.text(summaryPageBlock(p, o.pageTexts[p - 1]));
    }
    if (!imagesTooBig.isEmpty())
        notes->append((imagesTooBig.size() == 1
                           ? tr("Scanned page %1 went in without its image: it does not fit one "
                                "prompt.")
                           : tr("Scanned pages %1 went in without their images: they do not fit "
                                "one prompt."))
                          .arg(formatPageList(imagesTooBig)));

    QList<SummaryRequest> out;
    for (int s = 1; s <= pages;) {
        const QStringList partImages = out.isEmpty() ? images : QStringList();
        const qint64 base =
            partImages.isEmpty()
                ? frame
                : counter.prompt(partTurns(o, 1, pages, 0, 0, QString(), partImages));
        if (base + cost[s - 1] + kSlack > f.budget) {
            const QList<SummaryRequest> pieces = splitPage(o, counter, f, s);
            notes->append(tr("Page %1 is longer than one prompt: it was read in %2 pieces.")
                              .arg(s)
                              .arg(pieces.size()));
            if (!partImages.isEmpty())
                notes->append(tr("The images were left out: the first page fills a prompt."));
            out += pieces;
            ++s;
            continue;
        }
        int e = s;
        qint64 sum = cost[s - 1];
        while (e < pages && base + sum + cost[e] + kSlack <= f.budget)
            sum += cost[e++];
        SummaryRequest r;
        for (;; --e) {
            QString body;
            for (int p = s; p <= e; ++p)
                body += partPageBlock(o, p);
            r.turns = partTurns(o, s, e, 0, 0, body, partImages);
            r.promptTokens = counter.prompt(r.turns);
            if (r.promptTokens <= f.budget || e == s)
                break;
        }
        if (r.promptTokens > f.budget) { // one page alone: its joins cost more than counted
            out += splitPage(o, counter, f, s);
            notes->append(tr("Page %1 is longer than one prompt: it was read in %2 pieces.")
                              .arg(s)
                              .arg(out.last().pieces));
            ++s;
            continue;
        }
        r.firstPage = s;
        r.lastPage = e;
        r.maxTokens = f.maxTokens;
        out << r;
        s = e + 1;
    }
    for (int i = 0; i < out.size(); ++i) {
        out[i].stage = 1;
        out[i].index = i;
        out[i].count = int(out.size());
    }
    return out;
}

SummaryResult summarizeDocument(const SummaryOptions& o, const TokenCounter& counter,
                                const SummaryAsk& ask, const SummaryProgressFn& progress) {
    SummaryResult result;
    QString error;
    const QList<SummaryRequest> plan = planSummaryParts(o, counter, &error, &result.notes);
    if (!error.isEmpty()) {
        result.error = error;
        return result;
    }
    const Frame f = frameOf(o);
    const int pages = int(o.pageTexts.size());
    const qint64 combineFrame = counter.prompt(combineTurns(o, QString(), 1, pages));
    const qint64 room = f.budget - combineFrame - kSlack;
    // A part's summary in a combine prompt: its answer and its heading.
    const qint64 itemTokens = f.maxTokens + 12;
    // The time left of the whole summary: every stage's work, the rate measured on the
    // requests done (pipeline/eta).
    QElapsedTimer elapsed;
    elapsed.start();
    const std::function<double()> now =
        o.clock ? o.clock : [&elapsed] { return double(elapsed.nsecsElapsed()) / 1e9; };
    EtaEstimator eta;
    eta.start(0, now());
    qint64 done = 0;

    // Runs one stage's requests; false when one failed or was cancelled. `stages`: all
    // stages expected; `final`: the count is certain (shown).
    auto runStage = [&](const QList<SummaryRequest>& requests, int stages, bool final,
                        qint64 laterWork, QStringList* answers) {
        qint64 left = laterWork;
        for (const SummaryRequest& r : requests)
            left += work(r);
        for (SummaryRequest r : requests) {
            r.stages = stages;
            eta.setTotal(double(done + left));
            const double at = now();
            if (progress)
                progress({r.stage, final ? stages : 0, r.index + 1, r.count, r.firstPage,
                          r.lastPage, r.piece, r.pieces, eta.remaining(at), double(done),
                          double(done + left)});
            const SummaryAnswer a = ask(r);
            ++result.requests;
            result.promptTokens += r.promptTokens;
            if (a.status != SummaryAnswer::Status::Ok) {
                result.cancelled = a.status == SummaryAnswer::Status::Cancelled;
                result.error = failure(r, result.cancelled ? tr("cancelled") : a.error);
                return false;
            }
            done += work(r);
            left -= work(r);
            eta.progress(double(done), now());
            answers->append(a.text);
        }
        return true;
    };

    qint64 later = 0;
    int stages = 1 + laterStages(int(plan.size()), itemTokens, room, combineFrame, f, &later);
    QStringList answers;
    const bool partsDone = runStage(plan, stages, stages == 1, later, &answers);
    QList<Item> items;
    for (int i = 0; i < answers.size(); ++i) {
        const SummaryRequest& r = plan[i];
        result.parts << SummaryPart{r.firstPage, r.lastPage, r.piece, r.pieces, answers[i]};
        items << Item{r.firstPage, r.lastPage, r.piece, r.pieces, answers[i]};
    }
    result.stages = 1;
    if (!partsDone)
        return result;

    qint64 cap = room / 2 - kSlack;
    for (int stage = 2; items.size() > 1; ++stage) {
        QList<QList<Item>> groups;
        QList<SummaryRequest> requests =
            planCombine(o, counter, f, items, stage, cap, &groups, &result.notes);
        if (requests.size() >= items.size()) { // no pair fit: halve what each may take, again
            cap /= 2;
            if (cap < kMinRoom) {
                result.error = framesTooSmall(o, f, combineFrame);
                return result;
            }
            --stage;
            continue;
        }
        stages =
            stage + laterStages(int(requests.size()), itemTokens, room, combineFrame, f, &later);
        QStringList combined;
        const bool ok = runStage(requests, stages, requests.size() == 1, later, &combined);
        result.stages = stage;
        if (!ok)
            return result;
        QList<Item> next;
        for (int i = 0; i < combined.size(); ++i)
            next << Item{groups[i].first().firstPage, groups[i].last().lastPage, 0, 0, combined[i]};
        items = next;
    }
    result.ok = true;
    result.summary = items.first().text.trimmed();
    result.markdown = result.summary + QStringLiteral("\n\n") + partsSection(result);
    return result;
}

} // namespace folio::ui
