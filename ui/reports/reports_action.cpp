#include "reports/reports_action.h"

#include "chat/chat_pane.h"
#include "documents/documents_pane.h"
#include "reports/report_runner.h"
#include "reports/reports_dialog.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>

namespace folio::ui {

ReportsAction::ReportsAction(QMenu* menu, ChatPane* chat, DocumentsPane* documents,
                             EngineWorker* worker, QMainWindow* window)
    : QObject(window), chat_(chat), documents_(documents), window_(window),
      runner_(new ReportRunner(worker, this)) {
    QAction* action = menu->addAction(tr("&Reports…"), this, [this] { open(); });
    action->setObjectName(QStringLiteral("actionReports"));
    action->setShortcut(QKeySequence(tr("Ctrl+Shift+R")));
}

ReportsDialog* ReportsAction::open() {
    const QString chatId = chat_->currentChat().id;
    if (dialog_ && (dialogChat_ == chatId || runner_->isRunning())) {
        dialog_->show();
        dialog_->raise();
        dialog_->activateWindow();
        return dialog_;
    }
    if (dialog_)
        dialog_->deleteLater();
    dialog_ = new ReportsDialog(runner_, chatId, documents_->documents(), window_);
    dialog_->setAttribute(Qt::WA_DeleteOnClose, false);
    dialogChat_ = chatId;
    dialog_->show();
    return dialog_;
}

} // namespace folio::ui
