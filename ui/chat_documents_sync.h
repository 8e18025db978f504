#pragma once
// What depends on the current chat's documents in the window follows them (the Workbench keeps
// the documents and the chat in step): the question's chips, pinned pages and scanned-page
// switches (ChatController), the banner of missing files with "Locate…", OCR messages, a
// question waiting for a load, and the background reading of the document prefix with its
// exact sizes (ReadingPresenter), which go into the list's lines.

#include "doc_cache/document_prefix.h"

#include <QObject>

class QLabel;
class QWidget;

namespace folio::ui {

class ChatController;
class ChatDocuments;
class ChatPane;
class DocumentsPane;
class ModelController;
class ReadingPresenter;
class Workbench;
struct ModelFactsQ;

class ChatDocumentsSync : public QObject {
    Q_OBJECT
public:
    // `readingLabel` shows the read-ahead's line; `window` parents the "Locate…" dialog.
    ChatDocumentsSync(Workbench* workbench, ChatPane* chat, DocumentsPane* documents,
                      ChatController* controller, ModelController* models, QLabel* readingLabel,
                      QWidget* window);

    // The chat's document prefix to read in the background, again (model, prompt or
    // documents changed).
    void updateReading();
    // A model is ready: how the read-ahead puts scanned pages in follows its facts.
    void onModelReady(const ModelFactsQ& facts);
    // "Locate…" for the chat's document at `row` whose file is missing or changed.
    void locateDocument(int row);

private:
    void onDocumentsChanged();
    void onProblemsChanged();

    ChatPane* chat_;
    ChatDocuments* list_;      // the current chat's documents (the Workbench's)
    DocumentsPane* documents_; // its view
    ChatController* controller_;
    ModelController* models_;
    QWidget* window_;
    ReadingPresenter* reading_ = nullptr;
    // How the read-ahead puts scanned pages in: as the chat's questions do (ChatController).
    PrefixImageOptions prefixImages_;
    int removedNotice_ = 0; // "Removed … Undo", while it can be undone
};

} // namespace folio::ui
