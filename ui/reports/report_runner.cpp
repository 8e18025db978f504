#include "reports/report_runner.h"

#include "core/report/report_json.h"

namespace folio::ui {

ReportRunner::ReportRunner(EngineWorker* worker, QObject* parent)
    : QObject(parent), job_(new BlockingJob(worker, this)) {
    connect(worker, &EngineWorker::modelLoaded, this, [this](const ModelFactsQ& facts) {
        contextLimit_ = facts.contextLimit;
        acceptsImages_ = facts.acceptsImages;
    });
    connect(worker, &EngineWorker::counterChanged, this,
            [this](const TokenCounter& counter) { counter_ = counter; });
}

ReportRunner::~ReportRunner() {
    stop();
    if (thread_)
        thread_->join();
}

void ReportRunner::start(const Report& report, const ReportInputs& inputs, const QString& path,
                         const ReportRunOptions& options) {
    if (thread_)
        return;
    job_->reset();
    const TokenCounter counter = counter_;
    thread_ = std::make_unique<std::thread>([this, report, inputs, path, options, counter] {
        Report working = report;
        auto ask = [this](const SectionRequest& r) {
            GenerationSettings settings;
            settings.temperature = 0; // a report made again reads the same
            settings.maxTokens = r.maxTokens;
            const JobAnswer a = job_->ask(r.turns, settings);
            SectionAnswer answer;
            answer.status = a.status == JobAnswer::Status::Ok ? SectionAnswer::Status::Ok
                            : a.status == JobAnswer::Status::Failed
                                ? SectionAnswer::Status::Failed
                                : SectionAnswer::Status::Cancelled;
            answer.text = a.text;
            answer.error = a.error;
            return answer;
        };
        auto save = [this, path](const Report& r) {
            const QString failed = saveReport(path, r);
            QMetaObject::invokeMethod(this, [this, r] { Q_EMIT reportSaved(r); });
            return failed;
        };
        auto onProgress = [this](const ReportProgress& p) {
            const QString line = formatReportProgress(p);
            QMetaObject::invokeMethod(this, [this, line] { Q_EMIT progress(line); });
        };
        const ReportRunResult result =
            generateReport(working, inputs, counter, cache_, ask, save, onProgress, options);
        QMetaObject::invokeMethod(this, [this, result] {
            thread_->join();
            thread_.reset();
            Q_EMIT finished(result.ok, result.error);
        });
    });
}

void ReportRunner::stop() {
    if (thread_)
        job_->stop();
}

} // namespace folio::ui
