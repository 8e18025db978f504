#include "report/report_job.h"

#include "summarize/engine_turns.h"

#include "core/documents/document_loader.h"
#include "core/documents/document_ocr.h"
#include "core/pipeline/page_ranges.h"
#include "core/report/builtin_templates.h"
#include "core/report/report_export.h"
#include "core/report/report_generator.h"
#include "core/report/report_json.h"

#include "folio/agent.h"
#include "folio/chat_backend.h"
#include "folio/engine_backend.h"
#include "folio/remote_backend.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <cstdio>
#include <memory>
#include <optional>

#include <unistd.h>

namespace folio::report {

namespace {

using folio::ui::Document;

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// A server's context when none is given: what vLLM and SGLang serve most models with at least.
constexpr int64_t kRemoteContext = 8192;

// The documents of `o`, read (scanned pages with OCR). "" or why one cannot be used.
std::string readDocuments(const Options& o, QList<Document>& documents) {
    for (const std::string& path : o.documents) {
        Document doc = folio::ui::loadDocument(q(path));
        if (doc.state != Document::State::Ready)
            return doc.error.toStdString();
        if (doc.kind != Document::Kind::Pdf)
            return path + ": not a PDF (charts go after the PDFs as images)";
        const QString failed = folio::ui::readScannedPagesNow(
            doc, QStringLiteral("auto"), [&o, &path](int done, int total, double) {
                if (!o.quiet)
                    std::fprintf(stderr, "%s: OCR %d/%d pages\n",
                                 QFileInfo(q(path)).fileName().toUtf8().constData(), done, total);
            });
        if (!failed.isEmpty() && !o.quiet)
            std::fprintf(stderr, "%s: scanned pages not read: %s\n", path.c_str(),
                         failed.toUtf8().constData());
        documents << doc;
    }
    return {};
}

// True when `saved` was made from the same template and documents: it can be resumed.
bool sameReport(const folio::ui::Report& saved, const folio::ui::Report& fresh) {
    if (saved.templateText != fresh.templateText ||
        saved.documents.size() != fresh.documents.size())
        return false;
    for (int i = 0; i < saved.documents.size(); ++i)
        if (saved.documents[i].fingerprint != fresh.documents[i].fingerprint)
            return false;
    return true;
}

// The data sources as one SQL tool: CSV files (one table each) or one SQLite file.
Expected<SqlTool> openData(const std::vector<std::string>& paths) {
    bool allCsv = true;
    for (const std::string& p : paths)
        allCsv = allCsv &&
                 QString::fromStdString(p).endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
    if (allCsv)
        return SqlTool::open_csv(paths);
    if (paths.size() > 1)
        return make_error(ErrorCode::InvalidArgument,
                          "give either one SQLite database or CSV files to --data, not both");
    return SqlTool::open_sqlite(paths.front());
}

} // namespace

int run(const Options& o, std::string& error) {
    const auto app = folio::jobs::ensureApplication();
    namespace ui = folio::ui;

    const ui::TemplateParse shape = ui::findReportTemplate(q(o.templateName), q(o.language));
    if (!shape.ok()) {
        error = shape.error.toStdString();
        return 1;
    }
    QString templateText;
    {
        QFile file(shape.value.source);
        if (file.open(QIODevice::ReadOnly))
            templateText = QString::fromUtf8(file.readAll());
    }
    if (int(o.documents.size()) < shape.value.documents) {
        error = "the template \"" + shape.value.id.toStdString() + "\" reads " +
                std::to_string(shape.value.documents) + " documents; " +
                std::to_string(o.documents.size()) + " given";
        return 1;
    }
    std::unique_ptr<SqlTool> sql;
    if (!o.data.empty()) {
        auto opened = openData(o.data);
        if (!opened) {
            error = "the data cannot be opened: " + opened.error().to_string();
            return 1;
        }
        sql = std::make_unique<SqlTool>(std::move(*opened));
    }
    QList<Document> documents;
    if (std::string failed = readDocuments(o, documents); !failed.empty()) {
        error = failed;
        return 1;
    }

    // The backend: the embedded engine, or a server.
    std::unique_ptr<Engine> engine;
    std::unique_ptr<ChatBackend> backend;
    ui::TokenCounter counter; // estimates for a server
    int64_t context = o.context;
    std::string modelName;
    const bool vision = !o.mmproj.empty();
    if (!o.remote.empty()) {
        RemoteOptions ro;
        ro.base_url = o.remote;
        ro.api_key = o.apiKey;
        ro.model = o.remoteModel;
        auto remote = std::make_unique<RemoteBackend>(ro);
        if (auto v = remote->valid(); !v) {
            error = v.error().message;
            return 1;
        }
        backend = std::move(remote);
        modelName = o.remoteModel;
        if (context <= 0)
            context = kRemoteContext;
    } else {
        engine = std::make_unique<Engine>();
        ModelSpec spec;
        spec.gguf = o.model;
        spec.mmproj = o.mmproj;
        spec.threads = o.threads;
        spec.context = o.context;
        auto facts = engine->load_sync(spec);
        if (!facts) {
            error = facts.error().to_string();
            return 1;
        }
        context = facts->context_limit;
        modelName = facts->name;
        counter = folio::jobs::exactCounter(*engine, vision);
        backend = std::make_unique<EngineChatBackend>(*engine, modelName);
    }

    ui::Report report = ui::newReport(shape.value, templateText,
                                      shape.value.source.startsWith(QLatin1Char(':'))
                                          ? shape.value.id
                                          : QFileInfo(shape.value.source).fileName());
    for (const Document& d : documents)
        report.documents << ui::ReportDocument{d.path, d.title, d.fingerprint, d.pageCount};
    for (const std::string& image : o.images)
        report.images << QFileInfo(q(image)).absoluteFilePath();
    for (const std::string& data : o.data)
        report.dataSources << QFileInfo(q(data)).absoluteFilePath();
    report.model = q(modelName);

    const QString reportPath =
        o.reportFile.empty()
            ? QFileInfo(q(o.out)).dir().filePath(QFileInfo(q(o.out)).completeBaseName() +
                                                 QStringLiteral(".folio-report"))
            : q(o.reportFile);
    if (!o.restart && QFile::exists(reportPath)) {
        ui::Report saved;
        QString why;
        if (!ui::loadReport(reportPath, saved, &why)) {
            error = why.toStdString() + " (give --restart to make the report again)";
            return 1;
        }
        if (!sameReport(saved, report)) {
            error = QFileInfo(reportPath).fileName().toStdString() +
                    " was made from another template or other documents; give --restart to "
                    "make a new report, or --report FILE to keep both";
            return 1;
        }
        saved.model = report.model;
        report = saved;
        if (!o.quiet)
            std::fprintf(stderr, "resuming %s: %d of %d sections already made\n",
                         QFileInfo(reportPath).fileName().toUtf8().constData(),
                         int(report.sections.size()) - report.sectionsLeft(),
                         int(report.sections.size()));
    }

    ui::ReportInputs inputs;
    for (int i = 0; i < documents.size(); ++i) {
        ui::PageSource source;
        source.title = documents[i].title;
        source.pageTexts = documents[i].pageTexts;
        source.fingerprint = documents[i].fingerprint;
        source.number = i + 1;
        inputs.documents << source;
    }
    inputs.images = report.images;
    inputs.dataSources = report.dataSources;
    inputs.vision = vision || !o.remote.empty();
    inputs.contextTokens = context;
    inputs.answerTokens = o.max_tokens;

    // A server that refuses images (a text-only model: HTTP 400) gets the sections without
    // the charts, said once.
    bool imagesRefused = false;
    auto ask = [&](const ui::SectionRequest& sr) {
        RequestStats stats;
        std::string failure;
        ErrorCode code = ErrorCode::Ok;
        auto submit = [&](bool withImages) {
            Request request = folio::jobs::toRequest(sr.turns, withImages);
            request.sampling.temperature = 0; // reproducible reports
            request.max_tokens = sr.maxTokens;
            stats = {};
            failure.clear();
            request.callbacks.on_done = [&stats](const RequestStats& s) { stats = s; };
            request.callbacks.on_error = [&failure, &code](const Error& e) {
                failure = e.to_string();
                code = e.code;
            };
            backend->wait(backend->submit(std::move(request)));
        };
        const bool images = inputs.vision && !imagesRefused;
        if (sr.wantsData && sql) {
            // The section queries the data: the tool loop, each round a request (tool calls
            // of a server come back structured: written as the parser reads them).
            auto generate = [&](const std::vector<Message>& messages,
                                const std::string& tools) -> Expected<std::string> {
                Request request = folio::jobs::toRequest(sr.turns, false);
                request.messages = messages;
                request.tools_json = tools;
                request.sampling.temperature = 0;
                request.max_tokens = sr.maxTokens;
                RequestStats got;
                std::optional<Error> failed;
                request.callbacks.on_done = [&got](const RequestStats& s) { got = s; };
                request.callbacks.on_error = [&failed](const Error& e) { failed = e; };
                backend->wait(backend->submit(std::move(request)));
                if (failed)
                    return *failed;
                return got.text + render_tool_calls(got.tool_calls);
            };
            ui::SectionAnswer answer;
            auto turn =
                run_agent_turn(generate, folio::jobs::toRequest(sr.turns, false).messages, *sql);
            if (!turn) {
                answer.status = ui::SectionAnswer::Status::Failed;
                answer.error = q(turn.error().to_string());
                return answer;
            }
            answer.text = q(turn->answer);
            for (const ToolRound& round : turn->rounds) {
                const ui::TableParse parsed =
                    round.ok ? ui::parseMarkdownTable(q(round.result)) : ui::TableParse{};
                answer.tables << (parsed.ok() ? parsed.table : ui::MarkdownTable{});
            }
            return answer;
        }
        submit(images);
        if (images && sr.imagesIn && !o.remote.empty() && code == ErrorCode::InvalidArgument) {
            imagesRefused = true;
            if (!o.quiet)
                std::fprintf(stderr,
                             "the server refused the charts (%s); the sections go "
                             "without them\n",
                             failure.c_str());
            submit(false);
        }
        ui::SectionAnswer answer;
        if (!failure.empty()) {
            answer.status = ui::SectionAnswer::Status::Failed;
            answer.error = q(failure);
        } else if (stats.stop_reason == "cancelled") {
            answer.status = ui::SectionAnswer::Status::Cancelled;
        } else {
            answer.text = q(stats.text);
        }
        return answer;
    };
    auto save = [&reportPath](const ui::Report& r) { return ui::saveReport(reportPath, r); };
    const bool terminal = isatty(STDERR_FILENO) != 0;
    auto progress = [&o, terminal](const ui::ReportProgress& p) {
        if (o.quiet)
            return;
        const QByteArray line = ui::formatReportProgress(p).toUtf8();
        std::fprintf(stderr, terminal ? "\r%s\x1b[K" : "%s\n", line.constData());
    };
    ui::PageTokenCache cache;
    QElapsedTimer clock;
    clock.start();
    const ui::ReportRunResult result =
        ui::generateReport(report, inputs, counter, cache, ask, save, progress);
    if (!o.quiet && terminal)
        std::fprintf(stderr, "\n");
    if (!result.ok && result.failed.isEmpty()) { // cancelled, a context too small, a full disk
        error = result.error.toStdString();
        return 1;
    }

    QList<ui::CheckedFigure> all;
    for (int i = 0; i < report.sections.size(); ++i) {
        const ui::ReportSection& s = report.sections[i];
        all += s.figures;
        if (o.quiet)
            continue;
        QStringList pages;
        for (const ui::ReportPagesUsed& u : s.pagesUsed)
            pages << (report.documents.size() > 1 ? QStringLiteral("doc %1 ").arg(u.document + 1)
                                                  : QString()) +
                         ui::formatPageRanges(u.pages, u.pageCount);
        std::fprintf(
            stderr, "%d. %s [%s]%s%s\n", i + 1,
            report.shape.sections[i].heading.toUtf8().constData(),
            ui::reportSectionStateKey(s.state).toUtf8().constData(),
            pages.isEmpty() ? "" : (": " + pages.join(QStringLiteral("; "))).toUtf8().constData(),
            s.figures.isEmpty() ? "" : (" · " + ui::figuresLine(s.figures)).toUtf8().constData());
    }
    const QString written = ui::exportReport(q(o.out), report);
    if (!written.isEmpty()) {
        error =
            written.toStdString() + " (the sections are kept in " + reportPath.toStdString() + ")";
        return 1;
    }
    std::printf("%s\n",
                all.isEmpty() ? "Figures: none" : ui::figuresLine(all).toUtf8().constData());
    if (!o.quiet)
        std::fprintf(stderr, "wrote %s (%d sections made in %.1f s; kept in %s)\n", o.out.c_str(),
                     result.made, double(clock.elapsed()) / 1000.0,
                     reportPath.toUtf8().constData());
    if (!result.failed.isEmpty()) {
        error = result.error.toStdString() + "; run the same command again to make it again";
        return 1;
    }
    return 0;
}

} // namespace folio::report
