#pragma once
// The workbench window: Documents (left dock), Chat (centre), Devices (right dock), menus,
// and a status bar with the model, thread count and engine state. It composes the panes, the
// worker that answers (on its own thread) and the ChatController that carries the chat's
// requests to it; the window itself loads models and documents and routes no request.

#include <QFuture>
#include <QMainWindow>
#include <QSet>

#include "backend/engine_worker.h"
#include "doc_cache/document_prefix.h"

class QAction;
class QLabel;
class QDockWidget;
class QMenu;
class QThread;

namespace folio::ui {

class ChatController;
class FindBar;
class SummaryRunner;
class ChatPane;
class DevicesPane;
class DocumentsPane;
class QuestionImageAttacher;
class ReadingPresenter;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openDocuments(const QStringList& paths);
    // Sets the model file (GGUF) to use; the engine loads it off the GUI thread with the
    // options of the Settings dialog (remembered as the current model).
    void openModel(const QString& path);
    // The vision projector for the next model load (--mmproj); "" for none.
    void setMmproj(const QString& path);
    // At start without --model: loads the model of the last session, or (first run) leaves
    // the chat's notice offering the demo model.
    // With the remote backend chosen in Settings, connects to the server instead.
    void loadSavedModel();
    // Answers from an OpenAI-compatible server from now on (checked off the GUI thread; the
    // chat is ready once it answers the model list); embedded: back to the engine.
    void useBackend(const BackendConfig& config);
    // Writes the current chat as Markdown, HTML, PDF or JSON (by suffix) in the thread pool;
    // the future gives "" on success, else a message for the user.
    QFuture<QString> exportTo(const QString& path);
    // Writes the summary made last in the current chat (SummaryRunner) by itself, likewise; a
    // message when the chat has none.
    QFuture<QString> exportSummaryTo(const QString& path);
    // True when the current chat has a summary to export ("Export summary…" is enabled).
    bool hasSummaryToExport() const;
    // Opens the Settings dialog (modal).
    void showSettings();
    // True while documents or a model are loading.
    bool isBusy() const;

    DocumentsPane* documentsPane() const { return documents_; }
    // Asks a question as if typed into the chat (for --ask and tests).
    void ask(const QString& question);
    // True once the engine has the model loaded and answering is possible.
    bool modelReady() const { return engineReady_; }
    ChatPane* chatPane() const { return chat_; }
    QuestionImageAttacher* imageAttacher() const { return imageAttacher_; }
    DevicesPane* devicesPane() const { return devices_; }
    // The worker (on its own thread): tests put a scripted backend in place through it.
    EngineWorker* engineWorker() const { return worker_; }
    SummaryRunner* summaryRunner() const { return summaryRunner_; }

Q_SIGNALS:
    // Emitted when the last pending load finished.
    void idle();
    // Emitted when an answer is complete (or stopped / failed).
    void answerFinished(const QString& stopReason);
    // To the engine worker (queued across threads).
    void requestLoad(const folio::ui::LoadOptions& options);
    void requestBackend(const folio::ui::BackendConfig& config);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QDockWidget* addPaneDock(QWidget* pane, const QString& title, const QString& name,
                             Qt::DockWidgetArea area, int minimumWidth);
    void createMenus();
    void fitToScreen(bool firstRun);
    // Ctrl+F: the PDF preview's find bar when the Documents pane has the focus, else the chat's.
    void find();
    void applyChatKeys();
    void chooseDocuments();
    void chooseModel();
    void exportTranscript();
    void exportSummaryFile();
    // The save dialog of both exports: a path with a suffix, or "" when cancelled.
    QString askExportPath(const QString& title, const QString& defaultName);
    // Runs an export's future, then says how it went (status bar, or a warning).
    void watchExport(const QString& path, QFuture<QString> future);
    void updateSummaryAction();
    void about();
    void updateRecentMenu();
    void setState(const QString& state);
    void onBusyChanged();
    // Model loads and server checks in flight (modelLoads_): busy from the first to the last.
    void loadStarted();
    void loadEnded();
    void startEngine();
    void onModelLoaded(const ModelFactsQ& facts);
    void onLoadFailed(const QString& message);
    void onAnswerFinished(const RequestStatsQ& stats);
    void onDocumentsChanged();
    void openCitation(int document, int page);
    // "Locate…" for the chat's document at `row` whose file is missing or changed.
    void locateDocument(int row);
    void onDocumentProblemsChanged();
    void updateReading(); // the chat's document prefix to read in the background

    DocumentsPane* documents_ = nullptr;
    ChatPane* chat_ = nullptr;
    DevicesPane* devices_ = nullptr;
    QDockWidget* documentsDock_ = nullptr;
    QDockWidget* devicesDock_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QLabel* modelLabel_ = nullptr;
    QLabel* threadsLabel_ = nullptr;
    QLabel* stateLabel_ = nullptr;
    QLabel* readingLabel_ = nullptr;
    ReadingPresenter* reading_ = nullptr;
    qint64 contextLimit_ = 0;
    bool remoteModel_ = false;
    // How the read-ahead puts scanned pages in: as the chat's questions do (ChatController).
    PrefixImageOptions prefixImages_;
    int modelLoads_ = 0;
    QThread* engineThread_ = nullptr;
    EngineWorker* worker_ = nullptr;
    ChatController* chatController_ = nullptr;
    SummaryRunner* summaryRunner_ = nullptr; // "Summarize document"
    QAction* exportSummaryAction_ = nullptr;
    bool engineReady_ = false;
    bool connecting_ = false; // a remote server is being checked
    QString mmproj_;
    bool mmprojSet_ = false;
    QuestionImageAttacher* imageAttacher_ = nullptr; // images and page parts for a question
    QSet<QString> attachOnLoad_; // images the user opened: attached to the next question
    bool shownOnce_ = false;
    bool firstRun_ = false; // no saved geometry: the docks get their share once shown
    FindBar* transcriptFind_ = nullptr;
    FindBar* pdfFind_ = nullptr;
};

} // namespace folio::ui
