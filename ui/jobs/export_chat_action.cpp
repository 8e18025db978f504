#include "jobs/export_chat_action.h"

#include "chat/chat_pane.h"
#include "core/export/export_chat.h"
#include "core/export/transcript_export.h"
#include "documents/documents_pane.h"
#include "jobs/export_file_dialog.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QtConcurrent>

namespace folio::ui {

ExportChatAction::ExportChatAction(QMenu* menu, ChatPane* chat, DocumentsPane* documents,
                                   std::function<QString()> modelLine, QMainWindow* window)
    : QObject(window), chat_(chat), documents_(documents), modelLine_(std::move(modelLine)),
      window_(window) {
    QAction* action = menu->addAction(tr("&Export chat…"), this, [this] {
        const QString path =
            ExportFileDialog::askPath(window_, tr("Export chat"), QStringLiteral("folio-chat.md"));
        if (!path.isEmpty())
            ExportFileDialog::watch(window_, path, exportTo(path));
    });
    action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    action->setObjectName(QStringLiteral("actionExport"));
}

QFuture<QString> ExportChatAction::exportTo(const QString& path) const {
    ExportContext context;
    context.title = chat_->currentChat().displayTitle();
    for (const Document& d : documents_->documents()) {
        if (d.state != Document::State::Ready)
            continue;
        context.documents << d.title;
        if (context.documentPath.isEmpty() && d.kind == Document::Kind::Pdf)
            context.documentPath = d.path;
    }
    context.model = modelLine_();
    // Laying out and writing a long PDF takes a while: off the GUI thread, on a copy.
    return QtConcurrent::run(
        [path, chat = chat_->currentChat(), context] { return exportChat(path, chat, context); });
}

} // namespace folio::ui
