#include "jobs/table_extractor.h"

#include "jobs/table_request.h"

namespace folio::ui {

TableExtractor::TableExtractor(EngineWorker* worker, QObject* parent)
    : QObject(parent), request_(new JobRequest(worker, this)) {
    connect(request_, &JobRequest::finished, this, &TableExtractor::onFinished);
}

qint64 TableExtractor::extract(const QString& imagePath) {
    return request_->start(tableExtractionTurns(imagePath), tableExtractionSettings());
}

void TableExtractor::cancel() {
    request_->cancel();
}

void TableExtractor::onFinished(const JobAnswer& answer) {
    switch (answer.status) {
    case JobAnswer::Status::Cancelled:
        Q_EMIT failed(tr("Table extraction was stopped."));
        return;
    case JobAnswer::Status::Failed:
        Q_EMIT failed(tr("The model could not answer: %1").arg(answer.error));
        return;
    case JobAnswer::Status::Ok:
        Q_EMIT extracted(parseMarkdownTable(answer.text), answer.text);
        return;
    }
}

} // namespace folio::ui
