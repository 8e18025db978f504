#include "main_window.h"

#include "backend/long_context_defaults.h"
#include "chat/chat_controller.h"
#include "chat/chat_pane.h"
#include "chat/question_image_attacher.h"
#include "chat/question_images_bar.h"
#include "chat/send_keys.h"
#include "chat/transcript_view.h"
#include "devices/devices_pane.h"
#include "devices/server_panel.h"
#include "doc_cache/reading_presenter.h"
#include "documents/documents_pane.h"
#include "export/export_chat.h"
#include "find/find_bar.h"
#include "jobs/extract_table_action.h"
#include "jobs/summary_runner.h"
#include "model_info/model_facts.h"
#include "notifications/notification_area.h"
#include "pipeline/page_images.h"
#include "pipeline/page_ranges.h"
#include "settings/app_settings.h"
#include "settings/demo_model.h"
#include "settings/settings_dialog.h"
#include "window_fit.h"

#include "folio/system_info.h"
#include "folio/version.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPdfView>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QThread>
#include <QTimer>
#include <QtConcurrent>

#include <utility>

namespace folio::ui {

namespace {
constexpr int kMaxRecent = 10;
constexpr int kInfoNotificationMs = 15000; // an information goes by itself; an error stays
const char* const kRecentKey = "documents/recent";
// The local files of a drag (documents to open), or none when anything else is dragged.
QStringList droppedFiles(const QMimeData* mime) {
    QStringList paths;
    if (!mime || !mime->hasUrls())
        return paths;
    for (const QUrl& url : mime->urls()) {
        if (!url.isLocalFile())
            return {};
        paths << url.toLocalFile();
    }
    return paths;
}
} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Folio"));
    setWindowIcon(QIcon(QStringLiteral(":/folio/icons/folio.svg")));

    chat_ = new ChatPane(this);
    chat_->setObjectName(QStringLiteral("chatPane"));
    setCentralWidget(chat_);
    documents_ = new DocumentsPane(this);
    documentsDock_ = addPaneDock(documents_, tr("Documents"), QStringLiteral("documents"),
                                 Qt::LeftDockWidgetArea, 240);
    devices_ = new DevicesPane(this);
    devicesDock_ = addPaneDock(devices_, tr("Devices"), QStringLiteral("devices"),
                               Qt::RightDockWidgetArea, 260);

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

    createMenus();
    startEngine();
    // Files dropped anywhere in the window open (the question box would take them as text).
    setAcceptDrops(true);
    if (auto* input = chat_->findChild<QPlainTextEdit*>(QStringLiteral("chatInput")))
        input->viewport()->installEventFilter(this);
    applyChatKeys();
    transcriptFind_ = new FindBar(chat_->transcript(), transcriptSearcher(chat_->transcript()));
    transcriptFind_->setObjectName(QStringLiteral("transcriptFindBar"));
    if (auto* pdf = documents_->findChild<QPdfView*>()) {
        pdfFind_ = new FindBar(pdf, pdfSearcher(pdf));
        pdfFind_->setObjectName(QStringLiteral("pdfFindBar"));
    }
    // Chart → table (issue #23), in a Tools menu before Help.
    auto* tools = new QMenu(tr("&Tools"), this);
    menuBar()->insertMenu(menuBar()->actions().constLast(), tools);
    auto* extractTable = new ExtractTableAction(tools, documents_, worker_, this);
    // Also from an image attached to the question (a chart, or a part of a page cut around one).
    connect(chat_->questionImages(), &QuestionImagesBar::extractTableRequested, extractTable,
            [extractTable](const QString& file) { extractTable->extractFrom(file); });

    connect(documents_, &DocumentsPane::openRequested, this, &MainWindow::chooseDocuments);
    connect(documents_, &DocumentsPane::recentChosen, this,
            [this](const QString& path) { openDocuments({path}); });
    connect(documents_, &DocumentsPane::filesDropped, this, &MainWindow::openDocuments);
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

    connect(documents_, &DocumentsPane::documentLoaded, this, &MainWindow::onDocumentsChanged);
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
    // The Documents pane shows the current chat's documents; what changes there is the chat's.
    connect(documents_, &DocumentsPane::documentsEdited, this, [this] {
        chat_->setDocuments(documents_->chatDocuments());
        onDocumentsChanged();
    });
    // Another chat: its documents, and what depends on them (the question's chips, pinned
    // pages, the read-ahead) follow at once, not at the next document that loads.
    connect(chat_, &ChatPane::currentChatChanged, this, [this] {
        documents_->setDocuments(chat_->currentChat().documents);
        onDocumentsChanged();
    });
    connect(documents_, &DocumentsPane::problemsChanged, this,
            &MainWindow::onDocumentProblemsChanged);
    connect(documents_, &DocumentsPane::locateRequested, this, &MainWindow::locateDocument);
    connect(chat_, &ChatPane::locateRequested, this, &MainWindow::locateDocument);
    connect(chat_, &ChatPane::documentRemoveRequested, documents_, &DocumentsPane::removeDocument);
    // A question asked while a document loads waits for it (the pane says so; Stop cancels).
    chat_->setLoadingDocuments([this] { return documents_->loadingTitles(); });
    connect(documents_, &DocumentsPane::busyChanged, this, [this](bool busy) {
        if (!busy)
            chat_->releaseWaitingQuestion();
    });
    connect(chat_, &ChatPane::citationActivated, this, &MainWindow::openCitation);
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
    // The worker's Engine cancels its requests and joins its scheduler when destroyed.
    engineThread_->quit();
    engineThread_->wait();
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

void MainWindow::startEngine() {
    registerEngineTypes();
    engineThread_ = new QThread(this);
    engineThread_->setObjectName(QStringLiteral("EngineWorker"));
    worker_ = new EngineWorker;
    worker_->moveToThread(engineThread_);
    connect(engineThread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(this, &MainWindow::requestLoad, worker_, &EngineWorker::loadModel);
    connect(this, &MainWindow::requestBackend, worker_, &EngineWorker::useBackend);
    connect(worker_, &EngineWorker::modelLoaded, this, &MainWindow::onModelLoaded);
    connect(worker_, &EngineWorker::loadProgress, this, [this](double fraction) {
        setState(tr("loading model %1%").arg(qRound(fraction * 100)));
    });
    connect(worker_, &EngineWorker::loadFailed, this, &MainWindow::onLoadFailed);
    connect(worker_, &EngineWorker::statsUpdated, devices_, &DevicesPane::setEngineStats);
    connect(worker_, &EngineWorker::backendStatusUpdated, devices_, &DevicesPane::setBackendStatus);

    chatController_ = new ChatController(
        chat_, worker_, [this] { return documents_->documents(); }, this);
    connect(chatController_, &ChatController::answerStarted, this,
            [this] { setState(tr("generating…")); });
    connect(chatController_, &ChatController::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(chatController_, &ChatController::charsPerTokenMeasured, documents_,
            &DocumentsPane::setCharsPerToken);
    connect(chatController_, &ChatController::answerFinished, this, &MainWindow::onAnswerFinished);
    summaryRunner_ = new SummaryRunner(chat_, worker_, this);
    connect(summaryRunner_, &SummaryRunner::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(summaryRunner_, &SummaryRunner::summaryFinished, this,
            &MainWindow::updateSummaryAction);
    connect(chat_, &ChatPane::currentChatChanged, this, &MainWindow::updateSummaryAction);
    // Background reading of the documents and their exact sizes (doc_cache/reading_presenter.h).
    reading_ = new ReadingPresenter(this);
    connect(reading_, &ReadingPresenter::readRequested, worker_, &EngineWorker::readDocuments);
    connect(worker_, &EngineWorker::readingProgress, reading_, &ReadingPresenter::onProgress);
    connect(worker_, &EngineWorker::documentRead, reading_, &ReadingPresenter::onDocumentRead);
    connect(worker_, &EngineWorker::readingFinished, reading_, &ReadingPresenter::onFinished);
    connect(worker_, &EngineWorker::readingMessage, reading_, &ReadingPresenter::onMessage);
    connect(worker_, &EngineWorker::counterChanged, reading_, &ReadingPresenter::onCounterChanged);
    connect(reading_, &ReadingPresenter::documentStatus, documents_,
            &DocumentsPane::setReadingStatus);
    connect(reading_, &ReadingPresenter::documentTokens, documents_, &DocumentsPane::setTokenLine);
    connect(reading_->tokenCounts(), &TokenCountCache::counted, documents_,
            &DocumentsPane::setExactTokens);
    connect(reading_, &ReadingPresenter::statusLine, readingLabel_, &QLabel::setText);
    connect(reading_, &ReadingPresenter::notice, this, [this](const QString& message) {
        chat_->notifications()->post(NotificationArea::Kind::Info, message, QString(), {},
                                     kInfoNotificationMs);
    });
    engineThread_->start();
    QMetaObject::invokeMethod(
        worker_, [w = worker_] { w->startStatsTimer(250); }, Qt::QueuedConnection);
}

void MainWindow::onModelLoaded(const ModelFactsQ& f) {
    if (chatController_)
        chatController_->setModelFacts(f); // before `idle` below (see setModelFacts)
    engineReady_ = true;
    connecting_ = false;
    devices_->setRemoteMode(f.remote, f.path, f.name, f.contextLimit);
    if (f.remote) {
        modelLabel_->setText(tr("Remote: %1 at %2").arg(f.name, f.path));
        devices_->setModelFacts(
            {{tr("model"), f.name},
             {tr("server"), f.path},
             {tr("context"),
              f.contextLimit > 0 ? QString::number(f.contextLimit) : tr("not reported")}});
    }
    chat_->setModelReady(true, QString());
    chat_->setContextUsage(0, f.contextLimit);
    documents_->setContextLimit(f.contextLimit);
    contextLimit_ = f.contextLimit;
    remoteModel_ = f.remote;
    prefixImages_.readScannedPages = f.acceptsImages && !f.remote;
    prefixImages_.projector = f.projectorFingerprint;
    prefixImages_.dir = defaultPageImageDir();
    updateReading();
    setState(tr("ready"));
    if (!f.remote && f.threads > 0)
        threadsLabel_->setText(tr("threads: %1").arg(f.threads));
    // Where the engine put each layer's weights and KV (engine/backend's plan).
    if (!f.remote && !f.placement.isEmpty())
        devices_->setModelFact(tr("placement"), f.placement);
    loadEnded();
}

void MainWindow::onLoadFailed(const QString& message) {
    engineReady_ = false;
    updateReading();
    if (std::exchange(connecting_, false)) {
        modelLabel_->setText(tr("Not connected"));
        chat_->setModelReady(
            false,
            tr("Cannot use the server: %1. Check File → Settings…").arg(message.toHtmlEscaped()));
        chat_->notifications()->post(
            NotificationArea::Kind::Error,
            tr("Cannot use the server: %1\nCheck its address and API key in File → "
               "Settings… and that the server is running, then "
               "connect again.")
                .arg(message));
    } else {
        chat_->setModelReady(false, tr("The model could not be loaded: %1").arg(message));
        chat_->notifications()->post(
            NotificationArea::Kind::Error,
            tr("Cannot load the model: %1\nChoose another GGUF file with File → Open model…, or "
               "lower the context or memory settings in File → Settings….")
                .arg(message));
    }
    loadEnded();
}

void MainWindow::onAnswerFinished(const RequestStatsQ& stats) {
    if (devices_->isRemoteMode())
        devices_->addRemoteAnswer(stats);
    setState(tr("ready"));
    updateReading(); // the chat's system prompt may have changed
    Q_EMIT answerFinished(stats.stopReason);
}

void MainWindow::ask(const QString& question) {
    chat_->submitText(question);
}

void MainWindow::onDocumentsChanged() {
    QStringList names;
    QList<int> rows;
    const QList<Document>& docs = documents_->documents();
    for (qsizetype i = 0; i < docs.size(); ++i) {
        if (docs[i].state == Document::State::Ready) {
            names << docs[i].title;
            rows << int(i);
        }
    }
    chat_->setAttachments(names, rows);
    // Pages the user pinned per document always go into the prompt (ChatController plans).
    QHash<QString, QList<int>> pinned;
    for (const ChatDocument& d : documents_->chatDocuments())
        if (!d.pinnedPages.trimmed().isEmpty())
            pinned.insert(d.path, parsePageRanges(d.pinnedPages, d.pageCount));
    QSet<QString> scannedOff;
    for (const ChatDocument& d : documents_->chatDocuments())
        if (!d.readScannedPages)
            scannedOff.insert(d.path);
    if (chatController_) {
        chatController_->setPinnedPages(pinned);
        chatController_->setScannedPagesOff(scannedOff);
    }
    prefixImages_.off = scannedOff;
    updateReading();
}

void MainWindow::updateReading() {
    reading_->update(chat_->currentChat().systemPrompt, documents_->documents(),
                     engineReady_ && !remoteModel_, contextLimit_, prefixImages_);
}

void MainWindow::onDocumentProblemsChanged() {
    QList<QPair<int, QString>> problems;
    for (int row = 0; row < documents_->documents().size(); ++row)
        if (documents_->problem(row) != DocumentsPane::Problem::None)
            problems.append({row, documents_->problemText(row)});
    chat_->setDocumentProblems(problems);
}

void MainWindow::locateDocument(int row) {
    if (row < 0 || row >= documents_->documents().size())
        return;
    const QString old = documents_->documents().at(row).path;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Locate %1").arg(QFileInfo(old).fileName()), QFileInfo(old).absolutePath(),
        tr("Documents (*.pdf *.png *.jpg *.jpeg *.bmp *.gif);;All files (*)"));
    if (!path.isEmpty())
        documents_->locateDocument(row, path);
}

void MainWindow::openCitation(int document, int page) {
    if (document == kRemovedDocument) {
        // Never another document in its place: the citation was written about that one.
        statusBar()->showMessage(tr("The document this answer cites (page %1) is no longer in "
                                    "this chat: add it again to follow the citation.")
                                     .arg(page),
                                 8000);
        return;
    }
    const bool shown =
        document >= 0 ? documents_->showPage(document, page) : documents_->showPage(page);
    if (!shown)
        statusBar()->showMessage(document >= 0 && document < documents_->documents().size()
                                     ? tr("%1 has no page %2 (or is not loaded)")
                                           .arg(documents_->documents().at(document).title)
                                           .arg(page)
                                     : tr("No open PDF has a page %1").arg(page),
                                 5000);
}

void MainWindow::find() {
    QWidget* focus = QApplication::focusWidget();
    const bool inDocuments = focus && (focus == documents_ || documents_->isAncestorOf(focus));
    if (pdfFind_ && inDocuments && pdfFind_->parentWidget()->isVisible())
        pdfFind_->open();
    else
        transcriptFind_->open();
}

void MainWindow::applyChatKeys() {
    if (auto* keys = chat_->findChild<SendKeys*>())
        keys->setEnterSends(QSettings().value(QStringLiteral("chat/enterSends"), true).toBool());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!droppedFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QStringList paths = droppedFiles(event->mimeData());
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    openDocuments(paths);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    // The question box: a drag of files opens them rather than pasting their paths.
    switch (event->type()) {
    case QEvent::DragEnter:
    case QEvent::DragMove: {
        auto* drag = static_cast<QDragMoveEvent*>(event);
        if (droppedFiles(drag->mimeData()).isEmpty())
            break;
        drag->acceptProposedAction();
        return true;
    }
    case QEvent::Drop: {
        auto* drop = static_cast<QDropEvent*>(event);
        const QStringList paths = droppedFiles(drop->mimeData());
        if (paths.isEmpty())
            break;
        drop->acceptProposedAction();
        openDocuments(paths);
        return true;
    }
    default:
        break;
    }
    return QMainWindow::eventFilter(watched, event);
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
    recentMenu_ = file->addMenu(tr("Open &recent"));
    updateRecentMenu();
    file->addSeparator();
    QAction* exportAction =
        file->addAction(tr("&Export chat…"), this, &MainWindow::exportTranscript);
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportAction->setObjectName(QStringLiteral("actionExport"));
    // The summary job's result by itself; there is one once a summary of this chat is made.
    exportSummaryAction_ =
        file->addAction(tr("Export s&ummary…"), this, &MainWindow::exportSummaryFile);
    exportSummaryAction_->setObjectName(QStringLiteral("actionExportSummary"));
    exportSummaryAction_->setEnabled(false);
    QAction* summarize = file->addAction(tr("Summari&ze document"), this, [this] {
        summaryRunner_->summarizeOneOf(documents_->documents(), this);
    });
    summarize->setObjectName(QStringLiteral("actionSummarizeDocument"));
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
    QAction* findAction = edit->addAction(tr("&Find…"), this, &MainWindow::find);
    findAction->setShortcut(QKeySequence::Find);
    findAction->setObjectName(QStringLiteral("actionFind"));
    QAction* findNext = edit->addAction(tr("Find &next"), this, [this] {
        if (pdfFind_ && pdfFind_->isVisible())
            pdfFind_->findNext();
        else
            transcriptFind_->findNext();
    });
    findNext->setShortcut(QKeySequence::FindNext);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(documentsDock_->toggleViewAction());
    QAction* chatToggle = view->addAction(tr("Chat"));
    chatToggle->setCheckable(true);
    chatToggle->setChecked(true);
    connect(chatToggle, &QAction::toggled, chat_, &QWidget::setVisible);
    view->addAction(devicesDock_->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Folio"), this, &MainWindow::about);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::openDocuments(const QStringList& paths) {
    if (paths.isEmpty())
        return;
    for (const QString& p : paths)
        attachOnLoad_.insert(QFileInfo(p).absoluteFilePath());
    documents_->openFiles(paths);
    QSettings settings;
    QStringList recent = settings.value(QLatin1String(kRecentKey)).toStringList();
    for (const QString& p : paths) {
        const QString abs = QFileInfo(p).absoluteFilePath();
        recent.removeAll(abs);
        recent.prepend(abs);
    }
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(QLatin1String(kRecentKey), recent);
    updateRecentMenu();
}

void MainWindow::openModel(const QString& path) {
    const QFileInfo file(path);
    modelLabel_->setText(tr("Inspecting %1…").arg(file.fileName()));
    loadStarted(); // the inspection
    auto* watcher = new QFutureWatcher<ModelInspection>(this);
    connect(watcher, &QFutureWatcher<ModelInspection>::finished, this, [this, watcher, path] {
        const ModelInspection r = watcher->result();
        watcher->deleteLater();
        if (r.ok) {
            modelLabel_->setText(tr("Model: %1").arg(modelSummaryLine(r.info)));
            devices_->setModelFacts(modelFactRows(r.info));
            chat_->setModelReady(false, tr("Loading %1 (%2)…")
                                            .arg(QString::fromStdString(r.info.name),
                                                 QString::fromStdString(r.info.architecture)));
            engineReady_ = false;
            loadStarted(); // until the engine reports
            // A server check still running is superseded by the load: it never reports.
            if (std::exchange(connecting_, false))
                loadEnded();
            AppSettings settings = AppSettings::load();
            settings.rememberModel(path);
            settings.backend = BackendConfig::Kind::Embedded; // a model file: the engine answers
            devices_->setRemoteMode(false);
            if (mmprojSet_)
                settings.rememberMmproj(mmproj_);
            settings.save();
            // Long-document defaults (context, KV type, RAM budget, disk tier) where the
            // settings leave them to Folio.
            LoadOptions options = settings.loadOptions();
            const LongContextPlan plan = applyLongContextDefaults(options, options.offloadDir,
                                                                  !options.offloadDir.isEmpty());
            statusBar()->showMessage(
                tr("Loading with %1, KV %2").arg(describePlan(plan), options.kvType), 8000);
            Q_EMIT requestLoad(options);
        } else {
            modelLabel_->setText(tr("No model loaded"));
            chat_->notifications()->post(
                NotificationArea::Kind::Error,
                tr("Cannot open the model: %1\nChoose a GGUF model file with File → Open "
                   "model….")
                    .arg(r.error));
        }
        loadEnded(); // the inspection
    });
    watcher->setFuture(inspectModelAsync(path));
}

bool MainWindow::isBusy() const {
    return documents_->pendingLoads() > 0 || modelLoads_ > 0;
}

void MainWindow::loadStarted() {
    if (modelLoads_++ == 0)
        onBusyChanged();
}

void MainWindow::loadEnded() {
    if (modelLoads_ > 0 && --modelLoads_ == 0)
        onBusyChanged();
}

void MainWindow::onBusyChanged() {
    if (isBusy()) {
        setState(tr("loading…"));
    } else {
        setState(tr("idle"));
        Q_EMIT idle();
    }
}

void MainWindow::setState(const QString& state) {
    stateLabel_->setText(state);
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

QString MainWindow::askExportPath(const QString& title, const QString& defaultName) {
    QSettings settings;
    const QString dir =
        settings
            .value(QStringLiteral("export/lastDir"),
                   QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
            .toString();
    QString filter;
    QString path = QFileDialog::getSaveFileName(this, title, dir + QLatin1Char('/') + defaultName,
                                                exportFileFilters(), &filter);
    if (path.isEmpty())
        return {};
    settings.setValue(QStringLiteral("export/lastDir"), QFileInfo(path).absolutePath());
    // A name without a suffix takes the one of the chosen filter ("PDF (*.pdf)" -> ".pdf").
    if (QFileInfo(path).suffix().isEmpty()) {
        const qsizetype star = filter.indexOf(QStringLiteral("*."));
        if (star >= 0)
            path += filter.mid(star + 1).section(QRegularExpression(QStringLiteral("[ )]")), 0, 0);
    }
    return path;
}

void MainWindow::watchExport(const QString& path, QFuture<QString> future) {
    statusBar()->showMessage(tr("Exporting to %1…").arg(path));
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, path] {
        const QString error = watcher->result();
        watcher->deleteLater();
        if (error.isEmpty())
            statusBar()->showMessage(tr("Exported to %1").arg(path), 5000);
        else
            QMessageBox::warning(this, tr("Export failed"), error);
    });
    watcher->setFuture(future);
}

void MainWindow::exportTranscript() {
    const QString path = askExportPath(tr("Export chat"), QStringLiteral("folio-chat.md"));
    if (!path.isEmpty())
        watchExport(path, exportTo(path));
}

void MainWindow::exportSummaryFile() {
    if (!hasSummaryToExport())
        return;
    const QString path = askExportPath(tr("Export summary"), QStringLiteral("folio-summary.md"));
    if (!path.isEmpty())
        watchExport(path, exportSummaryTo(path));
}

bool MainWindow::hasSummaryToExport() const {
    const SummaryRunner::Summary& s = summaryRunner_->lastSummary();
    return !s.markdown.isEmpty() && s.chatId == chat_->currentChat().id;
}

void MainWindow::updateSummaryAction() {
    if (exportSummaryAction_)
        exportSummaryAction_->setEnabled(hasSummaryToExport());
}

QFuture<QString> MainWindow::exportSummaryTo(const QString& path) {
    if (!hasSummaryToExport())
        return QtConcurrent::run([] {
            return tr("This chat has no summary: make one with File → Summarize document.");
        });
    const SummaryRunner::Summary& s = summaryRunner_->lastSummary();
    const SummaryExport summary{s.title, s.documentPath, s.markdown, s.created};
    return QtConcurrent::run([path, summary] { return exportSummary(path, summary); });
}

QFuture<QString> MainWindow::exportTo(const QString& path) {
    ExportContext context;
    context.title = chat_->currentChat().displayTitle();
    for (const Document& d : documents_->documents()) {
        if (d.state != Document::State::Ready)
            continue;
        context.documents << d.title;
        if (context.documentPath.isEmpty() && d.kind == Document::Kind::Pdf)
            context.documentPath = d.path;
    }
    context.model = modelLabel_->text();
    // Laying out and writing a long PDF takes a while: off the GUI thread, on a copy.
    return QtConcurrent::run(
        [path, chat = chat_->currentChat(), context] { return exportChat(path, chat, context); });
}

void MainWindow::setMmproj(const QString& path) {
    mmproj_ = path;
    mmprojSet_ = true;
}

void MainWindow::useBackend(const BackendConfig& config) {
    if (!config.isRemote()) {
        devices_->setRemoteMode(false);
        // A server check still running is superseded: it never reports.
        if (std::exchange(connecting_, false))
            loadEnded();
        Q_EMIT requestBackend(config);
        return;
    }
    engineReady_ = false;
    modelLabel_->setText(tr("Connecting to %1…").arg(config.url));
    chat_->setModelReady(false, tr("Connecting to %1…").arg(config.url.toHtmlEscaped()));
    // Until the worker reports; only the last check does (an earlier one is superseded).
    if (!std::exchange(connecting_, true))
        loadStarted();
    Q_EMIT requestBackend(config);
}

void MainWindow::loadSavedModel() {
    const AppSettings settings = AppSettings::load();
    if (settings.backend == BackendConfig::Kind::Remote) {
        useBackend(settings.backendConfig());
        return;
    }
    if (!settings.modelPath.isEmpty() && QFileInfo(settings.modelPath).isFile())
        openModel(settings.modelPath);
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
    mmprojSet_ = false;
    if (settings.backend == BackendConfig::Kind::Remote) {
        useBackend(settings.backendConfig());
        return;
    }
    useBackend(settings.backendConfig()); // back to the embedded engine
    if (!settings.modelPath.isEmpty())
        openModel(settings.modelPath);
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value(QLatin1String(kRecentKey)).toStringList();
    for (const QString& path : recent) {
        recentMenu_
            ->addAction(QFileInfo(path).fileName(), this, [this, path] { openDocuments({path}); })
            ->setToolTip(path);
    }
    recentMenu_->setEnabled(!recent.isEmpty());
    documents_->setRecentFiles(recent);
}

void MainWindow::about() {
    QMessageBox::about(
        this, tr("About Folio"),
        tr("<h3>Folio %1</h3><p>A local workbench for long documents and charts.</p>"
           "<p>Kernels: %2</p><p>License: GPL-3.0-or-later.</p>")
            .arg(QString::fromLatin1(version_string()),
                 QString::fromStdString(describe_kernel_path(detect_cpu_features()))));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    chat_->saveCurrent();
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    event->accept();
}

} // namespace folio::ui
