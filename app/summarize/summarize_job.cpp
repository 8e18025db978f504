#include "summarize_job.h"

#include "documents/document_loader.h"
#include "pipeline/prompt_builder.h"
#include "storage/atomic_write.h"

#include "folio/engine.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>

#include <cstdio>
#include <memory>

#include <unistd.h>

namespace folio::summarize {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// QtPdf and the image plugins expect an application object; the CLI has none.
std::unique_ptr<QCoreApplication> ensureApplication() {
    if (QCoreApplication::instance())
        return nullptr;
    static int argc = 1;
    static char name[] = "folio-cli";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QCoreApplication>(argc, argv);
}

} // namespace

int run(const Options& o, std::string& error) {
    const auto app = ensureApplication();
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
    std::vector<ImageInput> images;
    for (const std::string& path : o.images) {
        const Document image = folio::ui::loadDocument(q(path));
        if (image.state != Document::State::Ready || image.kind != Document::Kind::Image) {
            error = image.state == Document::State::Failed ? image.error.toStdString()
                                                           : path + ": not an image";
            return 1;
        }
        images.push_back(ImageInput{path, 0, 0, {}});
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

    const QString system = folio::ui::buildSystemPrompt(folio::ui::defaultSystemPrompt(),
                                                        {{doc.title, doc.pageTexts}});
    Request request;
    request.messages.push_back({"system", system.toStdString(), {}, {}});
    Message question{"user", folio::ui::summaryQuestion().toStdString(), {}, {}};
    if (!o.mmproj.empty())
        question.images = images;
    request.messages.push_back(std::move(question));
    request.sampling.temperature = 0; // reproducible summaries
    request.max_tokens = o.max_tokens;
    RequestStats stats;
    std::string failure;
    const bool quiet = o.quiet;
    const bool terminal = isatty(STDERR_FILENO) != 0; // "\r" progress only on a terminal
    request.callbacks.on_prefill_progress = [quiet, terminal](int64_t done, int64_t total,
                                                              double eta) {
        if (!quiet && terminal)
            std::fprintf(stderr, "\rreading the document: %lld / %lld tokens (%.1f s left)   ",
                         static_cast<long long>(done), static_cast<long long>(total), eta);
    };
    request.callbacks.on_done = [&stats](const RequestStats& s) { stats = s; };
    request.callbacks.on_error = [&failure](const Error& e) { failure = e.to_string(); };
    const SessionId session = engine.create_session();
    engine.wait(engine.submit(session, std::move(request)));
    if (!quiet && terminal)
        std::fprintf(stderr, "\n");
    if (!failure.empty()) {
        error = failure;
        return 1;
    }

    QString md = QStringLiteral("# Summary: %1\n\n").arg(doc.title);
    md += QStringLiteral("*Source: %1 (%2 pages) · model: %3 · %4*\n\n")
              .arg(QFileInfo(doc.path).fileName())
              .arg(doc.pageCount)
              .arg(q(facts->name), QDateTime::currentDateTime().toString(Qt::ISODate));
    md += q(stats.text).trimmed() + QStringLiteral("\n\n---\n\n");
    md += QStringLiteral("*%1 prompt tokens · TTFT %2 ms · prefill %3 t/s · decode %4 t/s · %5 "
                         "tokens · %6*\n")
              .arg(stats.prompt_tokens)
              .arg(stats.ttft_ms, 0, 'f', 0)
              .arg(stats.prefill_tps, 0, 'f', 1)
              .arg(stats.decode_tps, 0, 'f', 1)
              .arg(stats.generated_tokens)
              .arg(q(stats.stop_reason));
    const QString written = folio::ui::writeTextFileAtomic(q(o.out), md);
    if (!written.isEmpty()) {
        error = written.toStdString();
        return 1;
    }
    if (!quiet)
        std::fprintf(stderr, "wrote %s (%lld tokens)\n", o.out.c_str(),
                     static_cast<long long>(stats.generated_tokens));
    return 0;
}

} // namespace folio::summarize
