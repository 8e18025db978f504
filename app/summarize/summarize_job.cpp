#include "summarize_job.h"

#include "summarize/engine_turns.h"

#include "core/documents/document_loader.h"
#include "core/figures/check_figures.h"
#include "core/figures/figures_json.h"
#include "core/pipeline/page_images.h"
#include "core/pipeline/page_ranges.h"
#include "core/pipeline/page_render.h"
#include "core/pipeline/summary_plan.h"
#include "core/pipeline/token_counter.h"
#include "core/storage/atomic_write.h"

#include "folio/engine.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <memory>

#include <unistd.h>

namespace folio::summarize {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

int run(const Options& o, std::string& error) {
    const auto app = folio::jobs::ensureApplication();
    using folio::ui::Document;

    const Document doc = folio::ui::loadDocument(q(o.document));
    if (doc.state != Document::State::Ready) {
        error = doc.error.toStdString();
        return 1;
    }
    if (doc.kind != Document::Kind::Pdf) {
        error = o.document + ": not a PDF";
        return 1;
    }
    QStringList images;
    for (const std::string& path : o.images) {
        const Document image = folio::ui::loadDocument(q(path));
        if (image.state != Document::State::Ready || image.kind != Document::Kind::Image) {
            error = image.state == Document::State::Failed ? image.error.toStdString()
                                                           : path + ": not an image";
            return 1;
        }
        images << q(path);
    }

    Engine engine;
    ModelSpec spec;
    spec.gguf = o.model;
    spec.mmproj = o.mmproj;
    spec.threads = o.threads;
    spec.context = o.context;
    auto facts = engine.load_sync(spec);
    if (!facts) {
        error = facts.error().to_string();
        return 1;
    }
    const bool vision = !o.mmproj.empty();

    folio::ui::SummaryOptions options;
    options.title = doc.title;
    options.pageTexts = doc.pageTexts;
    if (vision)
        options.images = images;
    // Scanned pages (no text layer) are read by the vision model: rendered on the projector's
    // canvas and put in at their place (issue #23); without a projector they are named.
    const QList<int> scanned = folio::ui::pagesWithoutTextLayer(doc);
    QList<int> scannedPages, scannedRead;
    for (int page : scanned) {
        scannedPages << page + 1;
        if (!vision)
            continue;
        const folio::ui::PageImageResult image = folio::ui::scannedPageImage(
            doc.path, doc.fingerprint, page, folio::ui::PageRenderParams{},
            folio::ui::defaultPageImageDir());
        if (image.ok()) {
            options.pageImages.insert(page + 1, image.image);
            scannedRead << page + 1;
        } else if (!o.quiet) {
            std::fprintf(stderr, "page %d: %s\n", page + 1, image.error.toUtf8().constData());
        }
    }
    options.contextTokens = facts->context_limit;
    options.answerTokens = o.max_tokens;

    const SessionId session = engine.create_session();
    qint64 promptTokens = 0, generatedTokens = 0;
    auto ask = [&](const folio::ui::SummaryRequest& sr) {
        Request request = folio::jobs::toRequest(sr.turns, vision);
        request.sampling.temperature = 0; // reproducible summaries
        request.max_tokens = sr.maxTokens;
        RequestStats stats;
        std::string failure;
        request.callbacks.on_done = [&stats](const RequestStats& s) { stats = s; };
        request.callbacks.on_error = [&failure](const Error& e) { failure = e.to_string(); };
        engine.wait(engine.submit(session, std::move(request)));
        folio::ui::SummaryAnswer answer;
        if (!failure.empty()) {
            answer.status = folio::ui::SummaryAnswer::Status::Failed;
            answer.error = q(failure);
            return answer;
        }
        promptTokens += stats.prompt_tokens;
        generatedTokens += stats.generated_tokens;
        answer.text = q(stats.text);
        return answer;
    };
    const bool quiet = o.quiet;
    const bool terminal = isatty(STDERR_FILENO) != 0; // one line updated in place on a terminal
    auto progress = [quiet, terminal](const folio::ui::SummaryProgress& p) {
        if (quiet)
            return;
        const QByteArray line = folio::ui::formatSummaryProgress(p).toUtf8();
        if (terminal)
            std::fprintf(stderr, "\r%s\x1b[K", line.constData());
        else
            std::fprintf(stderr, "%s\n", line.constData());
    };
    QElapsedTimer clock;
    clock.start();
    const folio::ui::SummaryResult result = folio::ui::summarizeDocument(
        options, folio::jobs::exactCounter(engine, vision), ask, progress);
    const double seconds = double(clock.elapsed()) / 1000.0;
    if (!quiet && terminal)
        std::fprintf(stderr, "\n");
    if (!result.ok) {
        error = result.error.toStdString();
        return 1;
    }

    QString md = QStringLiteral("# Summary: %1\n\n").arg(doc.title);
    md += QStringLiteral("*Source: %1 (%2 pages) · model: %3 · %4*\n\n")
              .arg(QFileInfo(doc.path).fileName())
              .arg(doc.pageCount)
              .arg(q(facts->name), QDateTime::currentDateTime().toString(Qt::ISODate));
    md += result.markdown.trimmed() + QStringLiteral("\n\n---\n\n");
    if (!scannedRead.isEmpty())
        md += QStringLiteral("*Scanned pages read as images by the vision model: %1.*\n\n")
                  .arg(folio::ui::formatPageList(scannedRead));
    if (scannedRead.size() < scannedPages.size())
        md += QStringLiteral("*Scanned pages without a text layer, not read: %1%2.*\n\n")
                  .arg(folio::ui::formatPageList(scannedPages.mid(0)),
                       vision ? QString() : QStringLiteral(" (give --mmproj P.gguf to read them)"));
    md += QStringLiteral("*%1 prompt tokens · %2 generated tokens · %3 requests in %4 stages · "
                         "context %5 · %6 s*\n")
              .arg(promptTokens)
              .arg(generatedTokens)
              .arg(result.requests)
              .arg(result.stages)
              .arg(facts->context_limit)
              .arg(seconds, 0, 'f', 1);
    const QString written = folio::ui::writeTextFileAtomic(q(o.out), md);
    if (!written.isEmpty()) {
        error = written.toStdString();
        return 1;
    }
    if (!quiet)
        std::fprintf(stderr, "wrote %s (%d parts, %d stages, %d requests, %.1f s)\n", o.out.c_str(),
                     int(result.parts.size()), result.stages, result.requests, seconds);

    // The model's summary only: the heading, source line and "Parts" section are Folio's.
    folio::figures::SourceDocument source;
    source.title = doc.title.toStdString();
    source.file_name = QFileInfo(doc.path).fileName().toStdString();
    for (const QString& page : doc.pageTexts)
        source.pages.push_back(page.toStdString());
    const std::vector<folio::figures::FigureResult> figures =
        folio::figures::check_figures(result.summary.toStdString(), {source});
    std::printf("%s\n",
                folio::figures::figures_count_line(folio::figures::count_figures(figures)).c_str());
    if (!o.figures.empty()) {
        const QString failed = folio::ui::writeTextFileAtomic(
            q(o.figures), QString::fromStdString(folio::figures::figures_json(figures)));
        if (!failed.isEmpty()) {
            error = failed.toStdString();
            return 1;
        }
    }
    return 0;
}

} // namespace folio::summarize
