#pragma once
// File → Reports… (Ctrl+Shift+R): the current chat's report in a ReportsDialog (one open at a
// time; it follows the chat it was opened for). The ReportRunner lives here, so a report goes on
// being made while the dialog is closed and other chats are used.

#include <QObject>
#include <QPointer>

class QMainWindow;
class QMenu;

namespace folio::ui {

class ChatPane;
class DocumentsPane;
class EngineWorker;
class ReportRunner;
class ReportsDialog;

class ReportsAction : public QObject {
    Q_OBJECT
public:
    ReportsAction(QMenu* menu, ChatPane* chat, DocumentsPane* documents, EngineWorker* worker,
                  QMainWindow* window);

    ReportRunner* runner() const { return runner_; }
    // Opens (or raises) the current chat's report dialog.
    ReportsDialog* open();

private:
    ChatPane* chat_;
    DocumentsPane* documents_;
    QMainWindow* window_;
    ReportRunner* runner_;
    QPointer<ReportsDialog> dialog_;
    QString dialogChat_;
};

} // namespace folio::ui
