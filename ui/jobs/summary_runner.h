#pragma once
// "Summarize document" in the workbench (issue #22 §3): the plan of pipeline/summary_plan (page
// ranges that fit the context, a summary per range, the parts combined in stages) run as a
// sequence of JobRequests (the jobs' engine session: the chat's cached prefix stays). The plan
// runs on a thread of its own (its exact token counts and waits never touch the GUI thread);
// each request starts on the GUI thread and its answer wakes the plan again. The chat shows
// one notice line updated in place with the stage, part, pages and time left (the status bar
// too), then the summary as an assistant message whose "Parts" section names the page ranges;
// its figures are checked against the document's pages (issue #46 §2) like an answer's.
// Stop in the chat pane cancels it.

#include "core/documents/document.h"
#include "core/pipeline/eta.h"
#include "core/pipeline/summary_plan.h"
#include "core/pipeline/token_counter.h"
#include "jobs/blocking_job.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>

#include <memory>
#include <thread>

class QTimer;
class QWidget;

namespace folio::ui {

class ChatPane;

class SummaryRunner : public QObject {
    Q_OBJECT
public:
    SummaryRunner(ChatPane* pane, EngineWorker* worker, QObject* parent = nullptr);
    ~SummaryRunner() override; // stops a summary in progress and waits for its thread

    bool isRunning() const { return thread_ != nullptr; }
    // The summary made last (for "Export summary…"): the chat it went into, its title, the
    // document and the Markdown ("# Summary: …", the summary, its parts); empty before one.
    struct Summary {
        QString chatId;
        QString title;
        QString documentPath;
        QString markdown;
        QDateTime created;
    };
    const Summary& lastSummary() const { return lastSummary_; }

public Q_SLOTS:
    // Summarizes a loaded PDF into the current chat (ignored while one runs or the chat answers).
    void summarize(const folio::ui::Document& document);
    // The menu action: the one loaded PDF of `documents`, or the one the user picks (`parent`
    // holds the dialog); a status message when there is none.
    void summarizeOneOf(const QList<folio::ui::Document>& documents, QWidget* parent);
    void stop();

Q_SIGNALS:
    void statusMessage(const QString& message, int timeoutMs);
    // The summary is in the chat (ok), or it failed or was stopped (a notice says why).
    void summaryFinished(bool ok);
    // The summary's figures are checked and on its message.
    void figuresChecked(const QString& chatId, qint64 messageId);

private:
    SummaryAnswer ask(const SummaryRequest& request); // on the plan's thread
    // A request starts: the line with the whole summary's time left (re-evaluated each
    // second by tick(), so it grows while a request takes longer than the rate predicted).
    void showProgress(const SummaryProgress& progress);
    void tick();
    void finish(const SummaryResult& result);
    // Checks the figures the model wrote in the summary message `messageId` (`text`: the
    // heading, then `summary` at `summaryAt`, then Folio's own "Parts" section, not checked).
    void checkFigures(qint64 messageId, const QString& text, qsizetype summaryAt,
                      qsizetype summaryLength);

    ChatPane* pane_;
    QString chatId_; // the chat the summary goes to (the user may be in another meanwhile)
    BlockingJob* job_;
    TokenCounter counter_;
    qint64 contextLimit_ = 0;
    QString title_;
    QString documentPath_;
    QStringList pageTexts_; // of the document summarized, for the figure check
    Summary lastSummary_;
    GenerationSettings settings_;
    QElapsedTimer clock_;
    EtaEstimator eta_;
    SummaryProgress progress_;
    QTimer* ticker_;
    std::unique_ptr<std::thread> thread_;
    bool stopping_ = false; // GUI thread
};

} // namespace folio::ui
