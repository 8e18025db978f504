#pragma once
// Files dragged onto the window open as documents: an event filter for the window and for the
// question box (which would otherwise paste their paths as text). Only a drag of local files
// is taken; anything else is left to the widget.

#include <QObject>
#include <QStringList>

class QMimeData;

namespace folio::ui {

class FileDrops : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    // Takes drags of files on `widget` (its drops are accepted).
    void watch(QObject* widget);
    // The local files of a drag, or none when anything else is dragged.
    static QStringList files(const QMimeData* mime);

Q_SIGNALS:
    void dropped(const QStringList& paths);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace folio::ui
