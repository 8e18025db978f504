#pragma once
// The Documents pane: a view of the current chat's documents (ChatDocuments: PDFs and images,
// in prompt order, with page counts, token estimates, errors, pinned pages) and a preview of the
// selected one with its page number and the page a citation pointed at. Documents are removed
// (button, Delete, context menu), reordered (buttons, context menu) and pinned here; the list
// itself, its loading and its problems are ChatDocuments' (which reports every change the chat
// should keep). Pages without a usable text layer are read with OCR in the background: the row
// shows the progress, an ETA and then where the text came from; the context menu stops it,
// reads again and sets the document's OCR languages (documents_pane_ocr.cpp).

#include "core/documents/chat_documents.h"

#include <QList>
#include <QWidget>

class QLabel;
class QToolButton;
class QListWidget;
class QMenu;
class QPdfDocument;
class QStackedWidget;

namespace folio::ui {

class HighlightPdfView;
class PageCropDialog;

class DocumentsPane : public QWidget {
    Q_OBJECT
public:
    // A view of `documents` (the workbench's), or, without, of a list of its own.
    explicit DocumentsPane(QWidget* parent = nullptr);
    explicit DocumentsPane(ChatDocuments* documents, QWidget* parent = nullptr);
    ChatDocuments* chatDocumentList() const { return docs_; }
    // Every file read, for every chat (read once, kept while unchanged).
    LoadedDocuments* loadedDocuments() const { return docs_->loadedDocuments(); }

    using Problem = ChatDocuments::Problem;

    // The list's operations (ChatDocuments), as the pane's buttons and menus use them. A file
    // opened that is already in the list is selected instead.
    void openFiles(const QStringList& paths);
    void setDocuments(const QList<ChatDocument>& documents) { docs_->setDocuments(documents); }
    QList<ChatDocument> chatDocuments() const { return docs_->chatDocuments(); }
    void removeDocument(int row) { docs_->remove(row); }
    void moveDocument(int row, int delta) { docs_->move(row, delta); }
    void setPinnedPages(int row, const QString& pages) { docs_->setPinnedPages(row, pages); }
    void setReadScannedPages(int row, bool on) { docs_->setReadScannedPages(row, on); }
    void setOcrLanguages(int row, const QString& languages) {
        docs_->setOcrLanguages(row, languages);
    }
    QString ocrLanguages(int row) const { return docs_->ocrLanguages(row); }
    void stopOcr(int row) { docs_->stopOcr(row); }
    void readOcr(int row) { docs_->readOcr(row); }
    QString ocrLine(int row) const { return docs_->ocrLine(row); }
    // The located file replaces the document at `row`, which stays selected.
    void locateDocument(int row, const QString& path);
    Problem problem(int row) const { return docs_->problem(row); }
    QString problemText(int row) const { return docs_->problemText(row); }
    // Asks the user for the pages to pin of the document at `row` (a dialog).
    void editPinnedPages(int row);
    const QList<Document>& documents() const { return docs_->documents(); }
    int pendingLoads() const { return docs_->pendingLoads(); }
    QStringList loadingTitles() const { return docs_->loadingTitles(); }
    // The recently opened files offered by the pane's "Recent" button (most recent first).
    void setRecentFiles(const QStringList& paths);
    // The model's context (tokens) the documents must fit in; 0: no model yet.
    void setContextLimit(qint64 tokens);
    // Characters per token of the loaded model's tokenizer, measured on its last answer
    // (refines the token estimates; 0: the default guess).
    void setCharsPerToken(double ratio) { docs_->setCharsPerToken(ratio); }
    qint64 estimatedTokens() const { return docs_->estimatedTokens(); }
    // Shows page `page` (1-based) of the selected PDF, else of the first PDF that has it.
    // False when no open PDF has that page.
    bool showPage(int page);
    // Shows page `page` of the document at `row` and marks it as the cited page. False when
    // that document is not a ready PDF with that page.
    bool showPage(int row, int page);
    // Shows page `page` of the document at `row` (-1: the selected PDF, else the first that has
    // the page) with `text` highlighted where it stands on the page (issue #46 §2: a checked
    // figure's match on its page): the text layer's boxes, or an OCR page's word boxes. The page
    // is shown even when the text is not found on it. False as showPage.
    bool showMatch(int row, int page, const QString& text);
    // The preview's PDF view (its highlight, for Find and tests).
    HighlightPdfView* pdfView() const { return pdfView_; }
    // The page last shown for a citation (0: none) and the preview's page line.
    QString pageLine() const;
    // The page the preview shows (1-based; 0 when it shows no PDF).
    int previewPage() const;
    // The row of the document the preview shows (-1: none).
    int currentRow() const;
    // Attaching to the next question (issue #23): the image at `row`, or page `page` (1-based)
    // of the PDF at `row`, whole or a part of it chosen in a PageCropDialog (opened here, not
    // modal to the window; returned for tests).
    void attachToQuestion(int row, int page = 0);
    PageCropDialog* attachPartOfPage(int row, int page);

public Q_SLOTS:
    // The lines ChatDocuments keeps by fingerprint (the reading, exact sizes).
    void setReadingStatus(const QString& fingerprint, const QString& text) {
        docs_->setReadingStatus(fingerprint, text);
    }
    void setTokenLine(const QString& fingerprint, const QString& text) {
        docs_->setTokenLine(fingerprint, text);
    }
    void setExactTokens(const QString& fingerprint, qint64 tokens) {
        docs_->setExactTokens(fingerprint, tokens);
    }

Q_SIGNALS:
    // ChatDocuments' signals, passed on (chatDocumentList() has the rest).
    void documentLoaded(const folio::ui::Document& document);
    void loadFailed(const QString& message);
    void busyChanged(bool busy);
    void documentsEdited();
    void problemsChanged();
    void documentTextChanged(const folio::ui::Document& document);
    void ocrMessage(const QString& message, bool error);
    void openRequested(); // the pane's "Open…" button
    void recentChosen(const QString& path);
    // The user asked to locate the file of the document at `row` (context menu).
    void locateRequested(int row);
    // The user attached an image file, or a page or a part of one (fractions of the page; an
    // empty region: the whole page), to the next question.
    void attachImageRequested(const QString& imagePath);
    void attachPageRequested(const QString& pdfPath, int page, const QRectF& region);

private:
    void connectList();
    // The list follows ChatDocuments' rows.
    void onRowsReset();
    void onRowInserted(int row);
    void onRowRemoved(int row);
    void onRowMoved(int from, int to);
    void onRowChanged(int row);
    void showListMenu(const QPoint& pos);
    void showPreviewMenu(const QPoint& pos);
    void addAttachActions(QMenu& menu, int row, int page);
    void addOcrActions(QMenu& menu, int row);
    // The preview's document (its OCR text, for Find) is the one at the current row.
    void updatePreviewText();
    void updatePageLabel();
    void showPreview(int row);
    // What the preview says when there is nothing to show.
    QString emptyHint() const;
    void refreshItem(int row);
    void refreshSummary();
    void loadPdfPreview(const QString& path);
    void jumpToPendingPage();
    void highlightMatch(int page, const QString& text);
    int rowWithPage(int page) const;

    ChatDocuments* docs_ = nullptr;
    QListWidget* list_ = nullptr;
    QStackedWidget* preview_ = nullptr;
    QLabel* emptyLabel_ = nullptr;
    QLabel* imageLabel_ = nullptr;
    HighlightPdfView* pdfView_ = nullptr;
    QPdfDocument* pdfDocument_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* pageLabel_ = nullptr;
    int citedPage_ = 0;
    QToolButton* recent_ = nullptr;
    QString requestedPdf_; // being opened for the preview
    QString shownPdf_;     // in pdfDocument_
    QString pendingMatch_; // highlighted on pendingPage_ once shown
    int pendingPage_ = 0;  // a citation's page, shown once the preview has the document
    qint64 contextLimit_ = 0;
};

} // namespace folio::ui
