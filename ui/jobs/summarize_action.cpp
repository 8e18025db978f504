#include "jobs/summarize_action.h"

#include "chat/chat_pane.h"
#include "core/export/export_chat.h"
#include "documents/documents_pane.h"
#include "jobs/export_file_dialog.h"
#include "jobs/summary_runner.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QStatusBar>
#include <QtConcurrent>

namespace folio::ui {

SummarizeAction::SummarizeAction(QMenu* menu, ChatPane* chat, DocumentsPane* documents,
                                 EngineWorker* worker, QMainWindow* window)
    : QObject(window), chat_(chat), window_(window) {
    runner_ = new SummaryRunner(chat, worker, this);
    connect(runner_, &SummaryRunner::statusMessage, window->statusBar(), &QStatusBar::showMessage);
    connect(runner_, &SummaryRunner::summaryFinished, this, &SummarizeAction::updateExportAction);
    connect(chat, &ChatPane::currentChatChanged, this, &SummarizeAction::updateExportAction);
    // The summary job's result by itself; there is one once a summary of this chat is made.
    exportAction_ = menu->addAction(tr("Export s&ummary…"), this, [this] {
        if (!hasSummaryToExport())
            return;
        const QString path = ExportFileDialog::askPath(window_, tr("Export summary"),
                                                       QStringLiteral("folio-summary.md"));
        if (!path.isEmpty())
            ExportFileDialog::watch(window_, path, exportSummaryTo(path));
    });
    exportAction_->setObjectName(QStringLiteral("actionExportSummary"));
    exportAction_->setEnabled(false);
    QAction* summarize = menu->addAction(tr("Summari&ze document"), this, [this, documents] {
        runner_->summarizeOneOf(documents->documents(), window_);
    });
    summarize->setObjectName(QStringLiteral("actionSummarizeDocument"));
}

bool SummarizeAction::hasSummaryToExport() const {
    const SummaryRunner::Summary& s = runner_->lastSummary();
    return !s.markdown.isEmpty() && s.chatId == chat_->currentChat().id;
}

void SummarizeAction::updateExportAction() {
    exportAction_->setEnabled(hasSummaryToExport());
}

QFuture<QString> SummarizeAction::exportSummaryTo(const QString& path) const {
    if (!hasSummaryToExport())
        return QtConcurrent::run([] {
            return tr("This chat has no summary: make one with File → Summarize document.");
        });
    const SummaryRunner::Summary& s = runner_->lastSummary();
    const SummaryExport summary{s.title, s.documentPath, s.markdown, s.created};
    return QtConcurrent::run([path, summary] { return exportSummary(path, summary); });
}

} // namespace folio::ui
