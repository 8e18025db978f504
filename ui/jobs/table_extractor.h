#pragma once
// Runs one "Extract table" request (a JobRequest: the same backend as the chat — the embedded
// engine with a vision projector, or a server that takes images — on the jobs' session) and
// parses the answer with parseMarkdownTable.

#include "core/pipeline/markdown_table.h"
#include "jobs/job_request.h"

#include <QObject>
#include <QString>

namespace folio::ui {

class TableExtractor : public QObject {
    Q_OBJECT
public:
    explicit TableExtractor(EngineWorker* worker, QObject* parent = nullptr);

    // Asks the model for the table in `imagePath`; a request still running is cancelled.
    // Returns the request id.
    qint64 extract(const QString& imagePath);
    void cancel();
    bool isRunning() const { return request_->isRunning(); }

Q_SIGNALS:
    // The answer arrived: `parse` says whether it is a table; `reply` is the model's text.
    void extracted(const folio::ui::TableParse& parse, const QString& reply);
    // No answer: the backend failed or the request was cancelled.
    void failed(const QString& message);

private:
    void onFinished(const JobAnswer& answer);

    JobRequest* request_;
};

} // namespace folio::ui
