#include "chat_documents_sync.h"

#include "chat/chat_controller.h"
#include "chat/chat_pane.h"
#include "core/documents/chat_documents.h"
#include "core/documents/loaded_documents.h"
#include "core/pipeline/page_images.h"
#include "core/workbench/workbench.h"
#include "doc_cache/reading_presenter.h"
#include "documents/documents_pane.h"
#include "model_controller.h"
#include "notifications/notification_area.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>

#include <utility>

namespace folio::ui {

namespace {
constexpr int kInfoNotificationMs = 15000; // an information goes by itself; an error stays
constexpr int kUndoRemoveMs = ChatPane::kUndoDeleteMs; // a removed document's Undo
} // namespace

ChatDocumentsSync::ChatDocumentsSync(Workbench* workbench, ChatPane* chat, DocumentsPane* documents,
                                     ChatController* controller, ModelController* models,
                                     QLabel* readingLabel, QWidget* window)
    : QObject(window), chat_(chat), list_(workbench->documents()), documents_(documents),
      controller_(controller), models_(models), window_(window) {
    // Documents loaded, edited (saved with the chat by the Workbench), another chat's shown,
    // OCR text of scanned pages arrived: sizes, the question's chips and the read-ahead follow.
    connect(list_, &ChatDocuments::documentsEdited, this, &ChatDocumentsSync::onDocumentsChanged);
    connect(list_, &ChatDocuments::rowsReset, this, &ChatDocumentsSync::onDocumentsChanged);
    connect(list_, &ChatDocuments::documentLoaded, this, &ChatDocumentsSync::onDocumentsChanged);
    connect(list_, &ChatDocuments::documentTextChanged, this,
            &ChatDocumentsSync::onDocumentsChanged);
    connect(list_, &ChatDocuments::ocrMessage, this, [this](const QString& message, bool error) {
        chat_->notifications()->post(error ? NotificationArea::Kind::Error
                                           : NotificationArea::Kind::Info,
                                     message, QString(), {}, error ? 0 : kInfoNotificationMs);
    });
    connect(list_, &ChatDocuments::problemsChanged, this, &ChatDocumentsSync::onProblemsChanged);
    connect(documents_, &DocumentsPane::locateRequested, this, &ChatDocumentsSync::locateDocument);
    connect(chat_, &ChatPane::locateRequested, this, &ChatDocumentsSync::locateDocument);
    connect(chat_, &ChatPane::documentRemoveRequested, list_, &ChatDocuments::remove);
    // A removal can be undone while the chat stays shown (issue #48 §13); another chat's
    // documents take the offer away.
    connect(list_, &ChatDocuments::documentRemoved, this, [this](const QString& title) {
        if (removedNotice_)
            chat_->notifications()->dismiss(removedNotice_);
        removedNotice_ = chat_->notifications()->post(
            NotificationArea::Kind::Info, tr("Removed “%1” from the chat.").arg(title), tr("Undo"),
            [this] {
                removedNotice_ = 0;
                list_->restoreRemoved();
            },
            kUndoRemoveMs);
    });
    connect(list_, &ChatDocuments::rowsReset, this, [this] {
        if (removedNotice_)
            chat_->notifications()->dismiss(std::exchange(removedNotice_, 0));
    });
    // A question asked while its documents load waits for them (the chat says so; Stop takes
    // it back), in whichever chat it was asked.
    controller_->setLoadingDocuments(
        [workbench](const ChatSession& c) { return workbench->loadingOf(c); });
    connect(workbench->loadedDocuments(), &LoadedDocuments::finished, controller_,
            &ChatController::sendNextWaiting, Qt::QueuedConnection);
    connect(list_, &ChatDocuments::busyChanged, this, [this](bool busy) {
        if (!busy)
            controller_->sendNextWaiting();
    });
    connect(controller_, &ChatController::charsPerTokenMeasured, list_,
            &ChatDocuments::setCharsPerToken);

    // Background reading of the documents and their exact sizes (doc_cache/reading_presenter.h).
    reading_ = new ReadingPresenter(this);
    EngineWorker* worker = models_->worker();
    connect(reading_, &ReadingPresenter::readRequested, worker, &EngineWorker::readDocuments);
    connect(worker, &EngineWorker::readingProgress, reading_, &ReadingPresenter::onProgress);
    connect(worker, &EngineWorker::documentRead, reading_, &ReadingPresenter::onDocumentRead);
    connect(worker, &EngineWorker::readingResumed, reading_, &ReadingPresenter::onResumed);
    connect(worker, &EngineWorker::readingFinished, reading_, &ReadingPresenter::onFinished);
    connect(worker, &EngineWorker::readingMessage, reading_, &ReadingPresenter::onMessage);
    connect(worker, &EngineWorker::counterChanged, reading_, &ReadingPresenter::onCounterChanged);
    connect(reading_, &ReadingPresenter::documentStatus, list_, &ChatDocuments::setReadingStatus);
    connect(reading_, &ReadingPresenter::documentTokens, list_, &ChatDocuments::setTokenLine);
    connect(reading_->tokenCounts(), &TokenCountCache::counted, list_,
            &ChatDocuments::setExactTokens);
    connect(reading_, &ReadingPresenter::statusLine, readingLabel, &QLabel::setText);
    connect(reading_, &ReadingPresenter::notice, this, [this](const QString& message) {
        chat_->notifications()->post(NotificationArea::Kind::Info, message, QString(), {},
                                     kInfoNotificationMs);
    });
}

void ChatDocumentsSync::onModelReady(const ModelFactsQ& f) {
    documents_->setContextLimit(f.contextLimit);
    prefixImages_.readScannedPages = f.acceptsImages && !f.remote;
    prefixImages_.projector = f.projectorFingerprint;
    prefixImages_.dir = defaultPageImageDir();
    updateReading();
}

void ChatDocumentsSync::onDocumentsChanged() {
    QStringList names;
    QList<int> rows;
    const QList<Document>& docs = list_->documents();
    for (qsizetype i = 0; i < docs.size(); ++i) {
        if (docs[i].state == Document::State::Ready) {
            names << docs[i].title;
            rows << int(i);
        }
    }
    chat_->setAttachments(names, rows);
    // The read-ahead leaves out scanned pages as the chat's questions do (ChatController).
    QSet<QString> scannedOff;
    for (const ChatDocument& d : list_->chatDocuments())
        if (!d.readScannedPages)
            scannedOff.insert(d.path);
    prefixImages_.off = scannedOff;
    updateReading();
}

void ChatDocumentsSync::updateReading() {
    reading_->update(chat_->currentChat().systemPrompt, list_->documents(),
                     models_->isReady() && !models_->isRemote(), models_->contextLimit(),
                     prefixImages_);
}

void ChatDocumentsSync::onProblemsChanged() {
    QList<QPair<int, QString>> problems;
    for (int row = 0; row < list_->count(); ++row)
        if (list_->problem(row) != ChatDocuments::Problem::None)
            problems.append({row, list_->problemText(row)});
    chat_->setDocumentProblems(problems);
}

void ChatDocumentsSync::locateDocument(int row) {
    if (row < 0 || row >= list_->count())
        return;
    const QString old = list_->documents().at(row).path;
    const QString path = QFileDialog::getOpenFileName(
        window_, tr("Locate %1").arg(QFileInfo(old).fileName()), QFileInfo(old).absolutePath(),
        tr("Documents (*.pdf *.png *.jpg *.jpeg *.bmp *.gif);;All files (*)"));
    if (!path.isEmpty())
        documents_->locateDocument(row, path);
}

} // namespace folio::ui
