#include "main_window.h"

#include "about_box.h"
#include "chat/chat_controller.h"
#include "chat/chat_pane.h"
#include "chat/question_image_attacher.h"
#include "chat/question_images_bar.h"
#include "chat/send_keys.h"
#include "chat/transcript_view.h"
#include "chat_documents_sync.h"
#include "core/workbench/workbench.h"
#include "devices/devices_pane.h"
#include "documents/documents_pane.h"
#include "documents/recent_files.h"
#include "file_drops.h"
#include "find/find_actions.h"
#include "jobs/extract_table_action.h"
#include "notifications/notification_area.h"
#include "reports/reports_action.h"
#include "settings/app_settings.h"
#include "settings/demo_model.h"
#include "settings/settings_dialog.h"
#include "window_fit.h"

#include "folio/system_info.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QPdfView>
#include <QPlainTextEdit>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>

#include <utility>

namespace folio::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Folio"));
    setWindowIcon(QIcon(QStringLiteral(":/folio/icons/folio.svg")));

    // The workbench's data; the panes are views of it.
    workbench_ = new Workbench(this);
    chat_ = new ChatPane(workbench_->chats(), this);
    chat_->setObjectName(QStringLiteral("chatPane"));
    setCentralWidget(chat_);
    documents_ = new DocumentsPane(workbench_->documents(), this);
    documentsDock_ = addPaneDock(documents_, tr("Documents"), QStringLiteral("documents"),
                                 Qt::LeftDockWidgetArea, 240);
    devices_ = new DevicesPane(this);
    devicesDock_ = addPaneDock(devices_, tr("Devices"), QStringLiteral("devices"),
                               Qt::RightDockWidgetArea, 260);
    createStatusBar();
    connectEngine();
    createMenus();
    // Files dropped anywhere in the window open (the question box would take them as text).
    auto* drops = new FileDrops(this);
    drops->watch(this);
    drops->watch(documents_);
    if (auto* input = chat_->findChild<QPlainTextEdit*>(QStringLiteral("chatInput")))
        drops->watch(input->viewport());
    connect(drops, &FileDrops::dropped, this, &MainWindow::openDocuments);
    applyChatKeys();
    // Chart → table (issue #23), in a Tools menu before Help.
    auto* tools = new QMenu(tr("&Tools"), this);
    menuBar()->insertMenu(menuBar()->actions().constLast(), tools);
    (new ExtractTableAction(tools, documents_, models_->worker(), this))
        ->followQuestionImages(chat_->questionImages());
    connectDocuments();
    connect(chat_, &ChatPane::citationActivated, this,
            [this](int document, int page) { openCitation(document, page); });
    connect(chat_, &ChatPane::figureActivated, this, &MainWindow::openCitation);
    connect(chat_, &ChatPane::storageFailed, this,
            [this](const QString& message) { statusBar()->showMessage(message, 10000); });
    connect(chat_, &ChatPane::noticeLinkActivated, this, [this](const QString& link) {
        if (link == QLatin1String("folio:demo") && !findDemoModel().isEmpty())
            openModel(findDemoModel());
    });
    chat_->setModelReady(false, firstRunNotice(!findDemoModel().isEmpty()));
    const QStringList chatErrors = chat_->openStore(ChatStore::defaultDir());
    if (!chatErrors.isEmpty())
        statusBar()->showMessage(
            tr("Some chats could not be read: %1").arg(chatErrors.join(QStringLiteral("; "))),
            10000);

    QSettings settings;
    const bool restored =
        restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    fitToScreen(!restored);
}

void MainWindow::createStatusBar() {
    modelLabel_ = new QLabel(tr("No model loaded"), this);
    modelLabel_->setObjectName(QStringLiteral("statusModel"));
    threadsLabel_ = new QLabel(this);
    threadsLabel_->setObjectName(QStringLiteral("statusThreads"));
    threadsLabel_->setText(tr("threads: %1").arg(query_system_info().logical_cores));
    stateLabel_ = new QLabel(tr("idle"), this);
    stateLabel_->setObjectName(QStringLiteral("statusState"));
    readingLabel_ = new QLabel(this);
    readingLabel_->setObjectName(QStringLiteral("statusReading"));
    statusBar()->addWidget(modelLabel_, 1);
    statusBar()->addPermanentWidget(readingLabel_);
    statusBar()->addPermanentWidget(threadsLabel_);
    statusBar()->addPermanentWidget(stateLabel_);
}

void MainWindow::connectDocuments() {
    connect(documents_, &DocumentsPane::openRequested, this, &MainWindow::chooseDocuments);
    connect(documents_, &DocumentsPane::recentChosen, this,
            [this](const QString& path) { openDocuments({path}); });
    connect(documents_, &DocumentsPane::busyChanged, this, &MainWindow::onBusyChanged);
    // Errors that belong to no chat go to the notification area (and the log), not into the
    // chat that happens to be open.
    connect(documents_, &DocumentsPane::loadFailed, this, [this](const QString& message) {
        chat_->notifications()->post(
            NotificationArea::Kind::Error,
            tr("A document could not be opened: %1\nCheck that the file opens in another viewer "
               "(or save it again as PDF), then open it with File → Open document….")
                .arg(message));
    });

    // Images and page parts go with one question (issue #23): attached as chips to the next
    // question; an image the user opens is attached to it at once.
    imageAttacher_ = new QuestionImageAttacher(this);
    connect(documents_, &DocumentsPane::attachImageRequested, imageAttacher_,
            &QuestionImageAttacher::attachFile);
    connect(documents_, &DocumentsPane::attachPageRequested, imageAttacher_,
            &QuestionImageAttacher::attachPage);
    connect(imageAttacher_, &QuestionImageAttacher::attached, chat_, &ChatPane::attachImage);
    connect(imageAttacher_, &QuestionImageAttacher::failed, this,
            [this](const QString& message) { statusBar()->showMessage(message, 10000); });
    connect(documents_, &DocumentsPane::documentLoaded, this, [this](const Document& d) {
        const bool opened = attachOnLoad_.remove(d.path);
        if (opened && d.kind == Document::Kind::Image)
            imageAttacher_->attachFile(d.path);
    });
}

// The first run sizes the window from the screen's available area (the preferred 1400×860
// where it fits); a restored geometry is moved and shrunk into it. The docks are narrow enough
// for 1280 px at 150 % and can be closed (View) or floated.
void MainWindow::fitToScreen(bool firstRun) {
    firstRun_ = firstRun;
    const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!s)
        return;
    const QRect available = s->availableGeometry();
    // The window manager's title bar and borders are not known before the window is shown.
    const QMargins frame(4, 32, 4, 4);
    const QRect target = firstRun ? firstRunFrame(available, QSize(1400, 860), frame)
                                  : fitInside(geometry().marginsAdded(frame), available);
    setGeometry(target.marginsRemoved(frame));
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (std::exchange(shownOnce_, true))
        return;
    // Now the real frame is known: keep all of it on the screen.
    QTimer::singleShot(0, this, [this] {
        const QScreen* s = screen();
        if (!s || isMaximized() || isFullScreen())
            return;
        // A first run shares the width out: a quarter each for Documents and Devices.
        if (firstRun_ && !documentsDock_->isFloating() && !devicesDock_->isFloating())
            resizeDocks({documentsDock_, devicesDock_}, {width() * 26 / 100, width() * 24 / 100},
                        Qt::Horizontal);
        const QRect outer = frameGeometry();
        const QRect fitted = fitInside(outer, s->availableGeometry());
        if (fitted == outer)
            return;
        const QRect inner = geometry();
        const QMargins frame(inner.left() - outer.left(), inner.top() - outer.top(),
                             outer.right() - inner.right(), outer.bottom() - inner.bottom());
        setGeometry(fitted.marginsRemoved(frame));
    });
}

MainWindow::~MainWindow() {
    models_->shutdown(); // the engine stops before the panes it reports to go
}

// A pane in a dock of its own; "<name>Pane" and "<name>Dock" are the object names (tests and
// the saved window state find them by these).
QDockWidget* MainWindow::addPaneDock(QWidget* pane, const QString& title, const QString& name,
                                     Qt::DockWidgetArea area, int minimumWidth) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name + QStringLiteral("Dock"));
    pane->setObjectName(name + QStringLiteral("Pane"));
    dock->setWidget(pane);
    dock->setMinimumWidth(minimumWidth);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::connectEngine() {
    models_ = new ModelController(chat_, devices_, this);
    connect(models_, &ModelController::ready, this, &MainWindow::onModelLoaded);
    connect(models_, &ModelController::loadingChanged, this, &MainWindow::onBusyChanged);
    connect(models_, &ModelController::modelLineChanged, modelLabel_, &QLabel::setText);
    connect(models_, &ModelController::stateChanged, stateLabel_, &QLabel::setText);
    connect(models_, &ModelController::threadsChanged, this,
            [this](int threads) { threadsLabel_->setText(tr("threads: %1").arg(threads)); });
    connect(models_, &ModelController::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(models_, &ModelController::loadingMessageDone, this, [this](const QString& message) {
        if (!message.isEmpty() && statusBar()->currentMessage() == message)
            statusBar()->clearMessage();
    });
    chatController_ = new ChatController(
        chat_, models_->worker(),
        [this](const ChatSession& chat) { return workbench_->documentsOf(chat); }, this);
    connect(chatController_, &ChatController::answerStarted, this,
            [this] { stateLabel_->setText(tr("generating…")); });
    connect(chatController_, &ChatController::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(chatController_, &ChatController::answerFinished, this, &MainWindow::onAnswerFinished);
    sync_ = new ChatDocumentsSync(workbench_, chat_, documents_, chatController_, models_,
                                  readingLabel_, this);
    connect(models_, &ModelController::failed, sync_, &ChatDocumentsSync::updateReading);
}

void MainWindow::onModelLoaded(const ModelFactsQ& f) {
    chatController_->setModelFacts(f); // before `idle` (see setModelFacts)
    sync_->onModelReady(f);
}

void MainWindow::onAnswerFinished(const RequestStatsQ& stats) {
    if (devices_->isRemoteMode())
        devices_->addRemoteAnswer(stats);
    stateLabel_->setText(tr("ready"));
    sync_->updateReading(); // the chat's system prompt may have changed
    Q_EMIT answerFinished(stats.stopReason);
}

void MainWindow::ask(const QString& question) {
    chat_->submitText(question);
}

void MainWindow::openCitation(int document, int page, const QString& match) {
    if (document == kRemovedDocument) {
        // Never another document in its place: the citation was written about that one.
        statusBar()->showMessage(tr("The document this answer cites (page %1) is no longer in "
                                    "this chat: add it again to follow the citation.")
                                     .arg(page),
                                 8000);
        return;
    }
    // A figure's page shows its match highlighted (issue #46 §2).
    const bool shown = !match.isEmpty() ? documents_->showMatch(document, page, match)
                       : document >= 0  ? documents_->showPage(document, page)
                                        : documents_->showPage(page);
    if (!shown)
        statusBar()->showMessage(document >= 0 && document < documents_->documents().size()
                                     ? tr("%1 has no page %2 (or is not loaded)")
                                           .arg(documents_->documents().at(document).title)
                                           .arg(page)
                                     : tr("No open PDF has a page %1").arg(page),
                                 5000);
}

void MainWindow::applyChatKeys() {
    if (auto* keys = chat_->findChild<SendKeys*>())
        keys->setEnterSends(QSettings().value(QStringLiteral("chat/enterSends"), true).toBool());
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* newChat = file->addAction(tr("&New chat"), this, [this] {
        chat_->newChat();
        if (auto* input = chat_->findChild<QPlainTextEdit*>(QStringLiteral("chatInput")))
            input->setFocus(Qt::ShortcutFocusReason);
    });
    newChat->setShortcut(QKeySequence::New);
    newChat->setObjectName(QStringLiteral("actionNewChat"));
    QAction* openDoc = file->addAction(tr("&Open document…"), this, &MainWindow::chooseDocuments);
    openDoc->setShortcut(QKeySequence::Open);
    openDoc->setObjectName(QStringLiteral("actionOpenDocument"));
    QAction* openModelAction = file->addAction(tr("Open &model…"), this, &MainWindow::chooseModel);
    openModelAction->setObjectName(QStringLiteral("actionOpenModel"));
    recent_ = new RecentFiles(file->addMenu(tr("Open &recent")), this);
    connect(recent_, &RecentFiles::chosen, this,
            [this](const QString& path) { openDocuments({path}); });
    connect(recent_, &RecentFiles::changed, documents_, &DocumentsPane::setRecentFiles);
    documents_->setRecentFiles(recent_->paths());
    file->addSeparator();
    exportChat_ = new ExportChatAction(
        file, chat_, documents_, [this] { return modelLabel_->text(); }, this);
    summarize_ = new SummarizeAction(file, chat_, documents_, models_->worker(), this);
    new ReportsAction(file, chat_, documents_, models_->worker(), this);
    file->addSeparator();
    QAction* settingsAction = file->addAction(tr("&Settings…"), this, &MainWindow::showSettings);
    // Ctrl+, as in most programs, and the platform's own key for preferences where it has one.
    QList<QKeySequence> settingsKeys{QKeySequence(Qt::CTRL | Qt::Key_Comma)};
    for (const QKeySequence& key : QKeySequence::keyBindings(QKeySequence::Preferences))
        if (!settingsKeys.contains(key))
            settingsKeys << key;
    settingsAction->setShortcuts(settingsKeys);
    settingsAction->setObjectName(QStringLiteral("actionSettings"));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    new FindActions(edit, chat_->transcript(), documents_->findChild<QPdfView*>(), documents_,
                    this);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(documentsDock_->toggleViewAction());
    QAction* chatToggle = view->addAction(tr("Chat"));
    chatToggle->setCheckable(true);
    chatToggle->setChecked(true);
    connect(chatToggle, &QAction::toggled, chat_, &QWidget::setVisible);
    view->addAction(devicesDock_->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Folio"), this, [this] { showAboutBox(this); });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::openDocuments(const QStringList& paths) {
    if (paths.isEmpty())
        return;
    for (const QString& p : paths)
        attachOnLoad_.insert(QFileInfo(p).absoluteFilePath());
    documents_->openFiles(paths);
    recent_->add(paths);
}

bool MainWindow::isBusy() const {
    return documents_->pendingLoads() > 0 || models_->isLoading();
}

void MainWindow::onBusyChanged() {
    if (isBusy()) {
        stateLabel_->setText(tr("loading…"));
    } else {
        stateLabel_->setText(tr("idle"));
        Q_EMIT idle();
    }
}

void MainWindow::chooseDocuments() {
    QSettings settings;
    const QString dir =
        settings
            .value(QStringLiteral("documents/lastDir"),
                   QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
            .toString();
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open documents"), dir,
        tr("Documents (*.pdf *.png *.jpg *.jpeg *.bmp *.gif);;All files (*)"));
    if (paths.isEmpty())
        return;
    settings.setValue(QStringLiteral("documents/lastDir"), QFileInfo(paths.first()).absolutePath());
    openDocuments(paths);
}

void MainWindow::chooseModel() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), QString(),
                                                      tr("GGUF models (*.gguf);;All files (*)"));
    if (!path.isEmpty())
        openModel(path);
}

void MainWindow::showSettings() {
    SettingsDialog dialog(AppSettings::load(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const AppSettings settings = dialog.settings();
    const QString keyWarning = settings.save();
    if (!keyWarning.isEmpty())
        statusBar()->showMessage(keyWarning, 20000);
    applyChatKeys();
    models_->forgetMmproj();
    models_->useBackend(settings.backendConfig()); // a server, or back to the embedded engine
    if (settings.backend != BackendConfig::Kind::Remote && !settings.modelPath.isEmpty())
        models_->openModel(settings.modelPath);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    chat_->saveCurrent();
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    event->accept();
}

} // namespace folio::ui
