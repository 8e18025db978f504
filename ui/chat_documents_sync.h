#pragma once
// Keeps the current chat and its documents in step: the Documents pane shows the chat's
// documents (another chat: its documents at once), what is edited there is saved with the chat,
// and what depends on them follows — the question's chips, pinned pages and scanned-page
// switches (ChatController), the banner of missing files, a question waiting for a load, and
// the background reading of the document prefix with its exact sizes (ReadingPresenter).

#include "core/chat/chat_session.h"
#include "core/documents/document.h"
#include "doc_cache/document_prefix.h"

#include <QObject>

class QLabel;
class QWidget;

namespace folio::ui {

class ChatController;
class ChatPane;
class DocumentsPane;
class ModelController;
class ReadingPresenter;
struct ModelFactsQ;

class ChatDocumentsSync : public QObject {
    Q_OBJECT
public:
    // `readingLabel` shows the read-ahead's line; `window` parents the "Locate…" dialog.
    ChatDocumentsSync(ChatPane* chat, DocumentsPane* documents, ChatController* controller,
                      ModelController* models, QLabel* readingLabel, QWidget* window);

    // The chat's document prefix to read in the background, again (model, prompt or
    // documents changed).
    void updateReading();
    // A model is ready: how the read-ahead puts scanned pages in follows its facts.
    void onModelReady(const ModelFactsQ& facts);
    // "Locate…" for the chat's document at `row` whose file is missing or changed.
    void locateDocument(int row);
    // The documents a question of `chat` carries (the current chat's as the Documents pane
    // has them; another chat's as read for every chat), and those of them still being read.
    QList<Document> documentsOf(const ChatSession& chat) const;
    QStringList loadingOf(const ChatSession& chat) const;

private:
    void onDocumentsChanged();
    void onProblemsChanged();

    ChatPane* chat_;
    DocumentsPane* documents_;
    ChatController* controller_;
    ModelController* models_;
    QWidget* window_;
    ReadingPresenter* reading_ = nullptr;
    // How the read-ahead puts scanned pages in: as the chat's questions do (ChatController).
    PrefixImageOptions prefixImages_;
};

} // namespace folio::ui
