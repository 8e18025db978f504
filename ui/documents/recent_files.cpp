#include "documents/recent_files.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace folio::ui {

namespace {
const char* const kRecentKey = "documents/recent";
} // namespace

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) {
    refresh();
}

QStringList RecentFiles::paths() const {
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void RecentFiles::add(const QStringList& paths) {
    QStringList recent = this->paths();
    for (const QString& p : paths) {
        const QString abs = QFileInfo(p).absoluteFilePath();
        recent.removeAll(abs);
        recent.prepend(abs);
    }
    while (recent.size() > kMax)
        recent.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), recent);
    refresh();
}

void RecentFiles::refresh() {
    menu_->clear();
    const QStringList recent = paths();
    for (const QString& path : recent)
        menu_->addAction(QFileInfo(path).fileName(), this, [this, path] { Q_EMIT chosen(path); })
            ->setToolTip(path);
    menu_->setEnabled(!recent.isEmpty());
    Q_EMIT changed(recent);
}

} // namespace folio::ui
