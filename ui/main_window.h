#pragma once
// The workbench window: Documents (left dock), Chat (centre), Devices (right dock), menus,
// and a status bar with the model, thread count and engine state. It composes the panes, the
// ModelController (which model answers; the worker on its own thread), the ChatController that
// carries the chat's requests to it, and the feature objects of the menus (exports, summary,
// table extraction). The data they show is the Workbench's (core/workbench): the window makes
// it and hands its parts to the panes and controllers.

#include <QFuture>
#include <QMainWindow>
#include <QSet>

#include "jobs/export_chat_action.h"
#include "jobs/summarize_action.h"
#include "model_controller.h"

class QLabel;
class QDockWidget;

namespace folio::ui {

class ChatController;
class SummaryRunner;
class ChatPane;
class DevicesPane;
class DocumentsPane;
class QuestionImageAttacher;
class ChatDocumentsSync;
class RecentFiles;
class Workbench;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openDocuments(const QStringList& paths);
    // Which model answers (ModelController): a GGUF file, its projector, the model of the last
    // session, or a server.
    void openModel(const QString& path) { models_->openModel(path); }
    void setMmproj(const QString& path) { models_->setMmproj(path); }
    void loadSavedModel() { models_->loadSavedModel(); }
    void useBackend(const BackendConfig& config) { models_->useBackend(config); }
    // The current chat as Markdown, HTML, PDF or JSON (by suffix), in the thread pool; the
    // future gives "" on success, else a message for the user.
    QFuture<QString> exportTo(const QString& path) { return exportChat_->exportTo(path); }
    // The summary made last in the current chat, likewise.
    QFuture<QString> exportSummaryTo(const QString& path) {
        return summarize_->exportSummaryTo(path);
    }
    bool hasSummaryToExport() const { return summarize_->hasSummaryToExport(); }
    // Opens the Settings dialog (modal).
    void showSettings();
    // True while documents or a model are loading.
    bool isBusy() const;

    // The chats and the current chat's documents (the panes are views of them).
    Workbench* workbench() const { return workbench_; }
    DocumentsPane* documentsPane() const { return documents_; }
    // Asks a question as if typed into the chat (for --ask and tests).
    void ask(const QString& question);
    // True once the engine has the model loaded and answering is possible.
    bool modelReady() const { return models_->isReady(); }
    ChatPane* chatPane() const { return chat_; }
    QuestionImageAttacher* imageAttacher() const { return imageAttacher_; }
    DevicesPane* devicesPane() const { return devices_; }
    // The worker (on its own thread): tests put a scripted backend in place through it.
    EngineWorker* engineWorker() const { return models_->worker(); }
    SummaryRunner* summaryRunner() const { return summarize_->runner(); }

Q_SIGNALS:
    // Emitted when the last pending load finished.
    void idle();
    // Emitted when an answer is complete (or stopped / failed).
    void answerFinished(const QString& stopReason);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    QDockWidget* addPaneDock(QWidget* pane, const QString& title, const QString& name,
                             Qt::DockWidgetArea area, int minimumWidth);
    void createStatusBar();
    void createMenus();
    void connectEngine();
    void connectDocuments();
    void fitToScreen(bool firstRun);
    void applyChatKeys();
    void chooseDocuments();
    void chooseModel();
    void onBusyChanged();
    void onModelLoaded(const ModelFactsQ& facts);
    void onAnswerFinished(const RequestStatsQ& stats);
    void openCitation(int document, int page, const QString& match = {});

    Workbench* workbench_ = nullptr;
    DocumentsPane* documents_ = nullptr;
    ChatPane* chat_ = nullptr;
    DevicesPane* devices_ = nullptr;
    QDockWidget* documentsDock_ = nullptr;
    QDockWidget* devicesDock_ = nullptr;
    QLabel* modelLabel_ = nullptr;
    QLabel* threadsLabel_ = nullptr;
    QLabel* stateLabel_ = nullptr;
    QLabel* readingLabel_ = nullptr;
    ModelController* models_ = nullptr;
    ChatController* chatController_ = nullptr;
    ChatDocumentsSync* sync_ = nullptr;
    RecentFiles* recent_ = nullptr;
    ExportChatAction* exportChat_ = nullptr;
    SummarizeAction* summarize_ = nullptr;
    QuestionImageAttacher* imageAttacher_ = nullptr; // images and page parts for a question
    QSet<QString> attachOnLoad_; // images the user opened: attached to the next question
    bool shownOnce_ = false;
    bool firstRun_ = false; // no saved geometry: the docks get their share once shown
};

} // namespace folio::ui
