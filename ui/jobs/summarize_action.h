#pragma once
// File → Summarize document and File → Export summary…: a summary of one loaded PDF made by the
// SummaryRunner into the current chat, and that summary written by itself (Markdown, HTML, PDF
// or JSON by suffix). "Export summary…" is enabled while the current chat has one.

#include <QFuture>
#include <QObject>
#include <QString>

class QAction;
class QMainWindow;
class QMenu;

namespace folio::ui {

class ChatPane;
class DocumentsPane;
class EngineWorker;
class SummaryRunner;

class SummarizeAction : public QObject {
    Q_OBJECT
public:
    // Adds both actions to `menu`.
    SummarizeAction(QMenu* menu, ChatPane* chat, DocumentsPane* documents, EngineWorker* worker,
                    QMainWindow* window);

    SummaryRunner* runner() const { return runner_; }
    // True when the current chat has a summary to export.
    bool hasSummaryToExport() const;
    // Writes that summary to `path` in the thread pool; the future gives "" on success, else a
    // message (also when the chat has no summary).
    QFuture<QString> exportSummaryTo(const QString& path) const;

private:
    void updateExportAction();

    ChatPane* chat_;
    QMainWindow* window_;
    SummaryRunner* runner_ = nullptr;
    QAction* exportAction_ = nullptr;
};

} // namespace folio::ui
