#include "chat_documents_sync.h"

#include "chat/chat_controller.h"
#include "chat/chat_pane.h"
#include "core/documents/loaded_documents.h"
#include "core/pipeline/page_images.h"
#include "doc_cache/reading_presenter.h"
#include "documents/documents_pane.h"
#include "model_controller.h"
#include "notifications/notification_area.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>

namespace folio::ui {

namespace {
constexpr int kInfoNotificationMs = 15000; // an information goes by itself; an error stays
} // namespace

ChatDocumentsSync::ChatDocumentsSync(ChatPane* chat, DocumentsPane* documents,
                                     ChatController* controller, ModelController* models,
                                     QLabel* readingLabel, QWidget* window)
    : QObject(window), chat_(chat), documents_(documents), controller_(controller), models_(models),
      window_(window) {
    connect(documents_, &DocumentsPane::documentLoaded, this,
            &ChatDocumentsSync::onDocumentsChanged);
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
    // OCR text of scanned pages arrived: sizes, the question's chips and the read-ahead follow.
    connect(documents_, &DocumentsPane::documentTextChanged, this,
            &ChatDocumentsSync::onDocumentsChanged);
    connect(documents_, &DocumentsPane::ocrMessage, this,
            [this](const QString& message, bool error) {
                chat_->notifications()->post(
                    error ? NotificationArea::Kind::Error : NotificationArea::Kind::Info, message,
                    QString(), {}, error ? 0 : kInfoNotificationMs);
            });
    connect(documents_, &DocumentsPane::problemsChanged, this,
            &ChatDocumentsSync::onProblemsChanged);
    connect(documents_, &DocumentsPane::locateRequested, this, &ChatDocumentsSync::locateDocument);
    connect(chat_, &ChatPane::locateRequested, this, &ChatDocumentsSync::locateDocument);
    connect(chat_, &ChatPane::documentRemoveRequested, documents_, &DocumentsPane::removeDocument);
    // A question asked while its documents load waits for them (the chat says so; Stop takes
    // it back), in whichever chat it was asked.
    controller_->setLoadingDocuments([this](const ChatSession& chat) { return loadingOf(chat); });
    connect(documents_->loadedDocuments(), &LoadedDocuments::finished, controller_,
            &ChatController::sendNextWaiting, Qt::QueuedConnection);
    connect(documents_, &DocumentsPane::busyChanged, this, [this](bool busy) {
        if (!busy)
            controller_->sendNextWaiting();
    });
    connect(controller_, &ChatController::charsPerTokenMeasured, documents_,
            &DocumentsPane::setCharsPerToken);

    // Background reading of the documents and their exact sizes (doc_cache/reading_presenter.h).
    reading_ = new ReadingPresenter(this);
    EngineWorker* worker = models_->worker();
    connect(reading_, &ReadingPresenter::readRequested, worker, &EngineWorker::readDocuments);
    connect(worker, &EngineWorker::readingProgress, reading_, &ReadingPresenter::onProgress);
    connect(worker, &EngineWorker::documentRead, reading_, &ReadingPresenter::onDocumentRead);
    connect(worker, &EngineWorker::readingFinished, reading_, &ReadingPresenter::onFinished);
    connect(worker, &EngineWorker::readingMessage, reading_, &ReadingPresenter::onMessage);
    connect(worker, &EngineWorker::counterChanged, reading_, &ReadingPresenter::onCounterChanged);
    connect(reading_, &ReadingPresenter::documentStatus, documents_,
            &DocumentsPane::setReadingStatus);
    connect(reading_, &ReadingPresenter::documentTokens, documents_, &DocumentsPane::setTokenLine);
    connect(reading_->tokenCounts(), &TokenCountCache::counted, documents_,
            &DocumentsPane::setExactTokens);
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
    const QList<Document>& docs = documents_->documents();
    for (qsizetype i = 0; i < docs.size(); ++i) {
        if (docs[i].state == Document::State::Ready) {
            names << docs[i].title;
            rows << int(i);
        }
    }
    chat_->setAttachments(names, rows);
    // The read-ahead leaves out scanned pages as the chat's questions do (ChatController).
    QSet<QString> scannedOff;
    for (const ChatDocument& d : documents_->chatDocuments())
        if (!d.readScannedPages)
            scannedOff.insert(d.path);
    prefixImages_.off = scannedOff;
    updateReading();
}

QList<Document> ChatDocumentsSync::documentsOf(const ChatSession& chat) const {
    if (chat.id == chat_->currentChat().id)
        return documents_->documents();
    // Another chat (its question waited its turn while the user moved on): its documents as
    // read for every chat; one no longer what the chat was about (changed since) stays out.
    QList<Document> out;
    for (const ChatDocument& saved : chat.documents) {
        std::optional<Document> read = documents_->loadedDocuments()->find(saved.path);
        if (!read || read->state != Document::State::Ready)
            continue;
        if (!saved.fingerprint.isEmpty() && read->fingerprint != saved.fingerprint)
            continue;
        if (!saved.title.isEmpty())
            read->title = saved.title;
        out << *read;
    }
    return out;
}

QStringList ChatDocumentsSync::loadingOf(const ChatSession& chat) const {
    if (chat.id == chat_->currentChat().id)
        return documents_->loadingTitles();
    QStringList titles;
    for (const ChatDocument& saved : chat.documents)
        if (documents_->loadedDocuments()->isReading(saved.path))
            titles << (saved.title.isEmpty() ? QFileInfo(saved.path).fileName() : saved.title);
    return titles;
}

void ChatDocumentsSync::updateReading() {
    reading_->update(chat_->currentChat().systemPrompt, documents_->documents(),
                     models_->isReady() && !models_->isRemote(), models_->contextLimit(),
                     prefixImages_);
}

void ChatDocumentsSync::onProblemsChanged() {
    QList<QPair<int, QString>> problems;
    for (int row = 0; row < documents_->documents().size(); ++row)
        if (documents_->problem(row) != DocumentsPane::Problem::None)
            problems.append({row, documents_->problemText(row)});
    chat_->setDocumentProblems(problems);
}

void ChatDocumentsSync::locateDocument(int row) {
    if (row < 0 || row >= documents_->documents().size())
        return;
    const QString old = documents_->documents().at(row).path;
    const QString path = QFileDialog::getOpenFileName(
        window_, tr("Locate %1").arg(QFileInfo(old).fileName()), QFileInfo(old).absolutePath(),
        tr("Documents (*.pdf *.png *.jpg *.jpeg *.bmp *.gif);;All files (*)"));
    if (!path.isEmpty())
        documents_->locateDocument(row, path);
}

} // namespace folio::ui
