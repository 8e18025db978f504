#pragma once
// A report made in the workbench (issue #49 §2, §6): core/report's generator run on a thread of
// its own, each section's request through the jobs' lane of the EngineWorker (BlockingJob: the
// chat's cached prefix stays, the chat stays usable), the report saved after every section to
// its file beside the chats. Each save is handed to the GUI thread as a copy (reportSaved), so
// the dialog shows sections as they are made; progress lines carry the whole run's ETA.

#include "core/pipeline/page_selection.h"
#include "core/pipeline/token_counter.h"
#include "core/report/report_generator.h"
#include "jobs/blocking_job.h"

#include <QObject>
#include <QString>

#include <memory>
#include <thread>

namespace folio::ui {

class ReportRunner : public QObject {
    Q_OBJECT
public:
    explicit ReportRunner(EngineWorker* worker, QObject* parent = nullptr);
    ~ReportRunner() override; // stops a run and waits for its thread

    bool isRunning() const { return thread_ != nullptr; }
    const TokenCounter& counter() const { return counter_; }
    // The loaded model's context (0 before a model loads: a server's common 4,096 is used).
    qint64 contextLimit() const { return contextLimit_; }
    // The answering model takes images (a vision projector, or a server).
    bool acceptsImages() const { return acceptsImages_; }

    // Makes `report`'s sections (options: which ones) from `inputs`, saving to `path`.
    // Ignored while a run goes on.
    void start(const Report& report, const ReportInputs& inputs, const QString& path,
               const ReportRunOptions& options = {});
    void stop();

Q_SIGNALS:
    void progress(const QString& line);
    void reportSaved(const folio::ui::Report& report);
    // The run ended: ok, or why not (cancelled, a failed section, a full disk).
    void finished(bool ok, const QString& message);

private:
    BlockingJob* job_;
    TokenCounter counter_;
    qint64 contextLimit_ = 0;
    bool acceptsImages_ = false;
    GenerationSettings settings_;
    std::unique_ptr<std::thread> thread_;
    PageTokenCache cache_;
};

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::Report)
