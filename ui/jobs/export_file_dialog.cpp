#include "jobs/export_file_dialog.h"

#include "core/export/export_chat.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMainWindow>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

namespace folio::ui {

QString ExportFileDialog::askPath(QWidget* parent, const QString& title,
                                  const QString& defaultName) {
    QSettings settings;
    const QString dir =
        settings
            .value(QStringLiteral("export/lastDir"),
                   QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
            .toString();
    QString filter;
    QString path = QFileDialog::getSaveFileName(parent, title, dir + QLatin1Char('/') + defaultName,
                                                exportFileFilters(), &filter);
    if (path.isEmpty())
        return {};
    settings.setValue(QStringLiteral("export/lastDir"), QFileInfo(path).absolutePath());
    // A name without a suffix takes the one of the chosen filter ("PDF (*.pdf)" -> ".pdf").
    if (QFileInfo(path).suffix().isEmpty()) {
        const qsizetype star = filter.indexOf(QStringLiteral("*."));
        if (star >= 0)
            path += filter.mid(star + 1).section(QRegularExpression(QStringLiteral("[ )]")), 0, 0);
    }
    return path;
}

void ExportFileDialog::watch(QMainWindow* window, const QString& path, QFuture<QString> future) {
    window->statusBar()->showMessage(tr("Exporting to %1…").arg(path));
    auto* watcher = new QFutureWatcher<QString>(window);
    QObject::connect(watcher, &QFutureWatcher<QString>::finished, window, [window, watcher, path] {
        const QString error = watcher->result();
        watcher->deleteLater();
        if (error.isEmpty())
            window->statusBar()->showMessage(tr("Exported to %1").arg(path), 5000);
        else
            QMessageBox::warning(window, tr("Export failed"), error);
    });
    watcher->setFuture(future);
}

} // namespace folio::ui
