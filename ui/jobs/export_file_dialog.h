#pragma once
// The save dialog of the exports (chat, summary) and the status line of one in progress.

#include <QCoreApplication>
#include <QFuture>
#include <QString>

class QMainWindow;
class QWidget;

namespace folio::ui {

class ExportFileDialog {
    Q_DECLARE_TR_FUNCTIONS(ExportFileDialog)
public:
    // A path with a suffix (the chosen filter's when the name has none), or "" when cancelled.
    // The folder is remembered for the next export.
    static QString askPath(QWidget* parent, const QString& title, const QString& defaultName);
    // Runs an export's future (it gives "" on success, else a message for the user), then says
    // how it went: in the window's status bar, or in a warning.
    static void watch(QMainWindow* window, const QString& path, QFuture<QString> future);
};

} // namespace folio::ui
