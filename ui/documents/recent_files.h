#pragma once
// File → Open recent: the last documents opened (newest first, kept in QSettings).

#include <QObject>
#include <QStringList>

class QMenu;

namespace folio::ui {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMax = 10;
    // Fills `menu` (and keeps it filled).
    RecentFiles(QMenu* menu, QObject* parent = nullptr);

    QStringList paths() const;
    // Puts `paths` first (as absolute paths).
    void add(const QStringList& paths);

Q_SIGNALS:
    void chosen(const QString& path);
    void changed(const QStringList& paths);

private:
    void refresh();

    QMenu* menu_;
};

} // namespace folio::ui
