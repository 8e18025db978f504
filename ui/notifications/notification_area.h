#pragma once
// The notification area: short messages for the user that belong to no chat — an error (what
// happened, what to do), or an undoable step ("Deleted “Revenue”. Undo"). Each is a line with
// an icon, its text, an optional action button and a close button; a timeout removes it on its
// own. Errors also go to the log. Colours come from the palette.

#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>

class QVBoxLayout;

namespace folio::ui {

class NotificationArea : public QWidget {
    Q_OBJECT
public:
    enum class Kind { Info, Error };

    explicit NotificationArea(QWidget* parent = nullptr);

    // Shows `text` (plain text); with `actionText` a button that runs `action` and closes the
    // notification. `timeoutMs` > 0 closes it after that long. Returns its id.
    int post(Kind kind, const QString& text, const QString& actionText = QString(),
             std::function<void()> action = {}, int timeoutMs = 0);
    void dismiss(int id);
    // The texts shown, oldest first (tests, screenshots).
    QStringList texts() const;
    int count() const { return int(items_.size()); }

Q_SIGNALS:
    // A notification was posted (`text`, as shown).
    void posted(const QString& text);

private:
    struct Item {
        int id = 0;
        QWidget* widget = nullptr;
        QString text;
    };
    QVBoxLayout* layout_ = nullptr;
    QList<Item> items_;
    int nextId_ = 1;
};

} // namespace folio::ui
