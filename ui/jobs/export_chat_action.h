#pragma once
// File → Export chat… (Ctrl+E): the current chat as Markdown, HTML, PDF or JSON (by suffix),
// laid out and written in the thread pool on a copy of the chat.

#include <QFuture>
#include <QObject>
#include <QString>

#include <functional>

class QMainWindow;
class QMenu;

namespace folio::ui {

class ChatPane;
class DocumentsPane;

class ExportChatAction : public QObject {
    Q_OBJECT
public:
    // Adds the action to `menu`; `modelLine` names the model in the export's header.
    ExportChatAction(QMenu* menu, ChatPane* chat, DocumentsPane* documents,
                     std::function<QString()> modelLine, QMainWindow* window);

    // Writes the current chat to `path`; the future gives "" on success, else a message.
    QFuture<QString> exportTo(const QString& path) const;

private:
    ChatPane* chat_;
    DocumentsPane* documents_;
    std::function<QString()> modelLine_;
    QMainWindow* window_;
};

} // namespace folio::ui
