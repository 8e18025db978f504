#pragma once
// The Documents pane: the current chat's documents (PDFs and images, in prompt order: page
// counts, token estimates, errors, pinned pages) and a preview of the selected one with its page
// number and the page a citation pointed at. Loading runs off the GUI thread. Documents are
// removed (button, Delete, context menu) and reordered (buttons, context menu) here; every
// change is reported by documentsEdited() so the window can keep the chat's list in step.
// Pages without a usable text layer are read with OCR in the background (LoadedDocuments):
// the row shows the progress, an ETA and then where the text came from; the context menu
// stops it, reads again and sets the document's OCR languages (documents_pane_ocr.cpp).

#include "core/documents/chat_document.h"
#include "core/documents/document.h"

#include <QHash>
#include <QList>
#include <QWidget>

class QLabel;
class QToolButton;
class QListWidget;
class QMenu;
class QPdfDocument;
class QPdfView;
class QStackedWidget;

namespace folio::ui {

class LoadedDocuments;

class PageCropDialog;

class DocumentsPane : public QWidget {
    Q_OBJECT
public:
    explicit DocumentsPane(QWidget* parent = nullptr);
    // Every file this pane has read, for every chat (read once, kept while unchanged).
    LoadedDocuments* loadedDocuments() const { return loaded_; }

    // What is wrong with a document the chat had kept.
    enum class Problem { None, Missing, Changed, Unreadable };

    // Starts loading each file in the background; unsupported files are reported and skipped,
    // a file already in the list is selected instead.
    void openFiles(const QStringList& paths);
    // Shows a chat's documents instead of the current ones (loading each again); a file that is
    // gone or whose SHA-256 differs from the saved fingerprint gets a problem (problemsChanged).
    void setDocuments(const QList<ChatDocument>& documents);
    // The documents as the chat keeps them (path, fingerprint, title, pages, pinned pages).
    QList<ChatDocument> chatDocuments() const;
    void removeDocument(int row);
    // Moves the document at `row` by `delta` places (prompt order).
    void moveDocument(int row, int delta);
    void setPinnedPages(int row, const QString& pages);
    // "Read scanned pages with the vision model" for the document at `row` (on by default).
    void setReadScannedPages(int row, bool on);
    // OCR of the document at `row`: its languages ("auto", "eng", "chi_sim", "eng+chi_sim":
    // saved, and its scanned pages read again with them), stop, read what is left.
    void setOcrLanguages(int row, const QString& languages);
    QString ocrLanguages(int row) const;
    void stopOcr(int row);
    void readOcr(int row);
    // The row's OCR line ("OCR: page 3 of 8 · about 20 s left", "page 8 read with OCR (…)").
    QString ocrLine(int row) const;
    // The chat's document at `row` is the file at `path` (a moved file found again): loaded
    // from there; its fingerprint is checked against the saved one, then kept.
    void locateDocument(int row, const QString& path);
    Problem problem(int row) const;
    // One line per document with a problem, for the user ("report.pdf is missing: /a/b.pdf").
    QString problemText(int row) const;
    // Asks the user for the pages to pin of the document at `row` (a dialog).
    void editPinnedPages(int row);
    const QList<Document>& documents() const { return documents_; }
    int pendingLoads() const;
    // Titles of the documents still loading.
    QStringList loadingTitles() const;
    // The recently opened files offered by the pane's "Recent" button (most recent first).
    void setRecentFiles(const QStringList& paths);
    // The model's context (tokens) the documents must fit in; 0: no model yet.
    void setContextLimit(qint64 tokens);
    // Characters per token of the loaded model's tokenizer, measured on its last answer
    // (refines the token estimates; 0: the default guess).
    void setCharsPerToken(double ratio);
    // Estimated prompt tokens of every ready document.
    qint64 estimatedTokens() const;
    // Shows page `page` (1-based) of the selected PDF, else of the first PDF that has it.
    // False when no open PDF has that page.
    bool showPage(int page);
    // Shows page `page` of the document at `row` and marks it as the cited page. False when
    // that document is not a ready PDF with that page.
    bool showPage(int row, int page);
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
    // A line under the document's list item about its background reading ("reading 40% · 1 min
    // left", "read · in the cache"); "" removes it. `fingerprint`: Document::fingerprint.
    void setReadingStatus(const QString& fingerprint, const QString& text);
    // The document's exact size line, shown instead of the estimate ("12,345 tokens · fits").
    void setTokenLine(const QString& fingerprint, const QString& text);
    // The document's exact token count (the loaded model's tokenizer): the summary line under
    // the list adds these instead of estimates.
    void setExactTokens(const QString& fingerprint, qint64 tokens);

Q_SIGNALS:
    void documentLoaded(const folio::ui::Document& document);
    void loadFailed(const QString& message);
    void busyChanged(bool busy);
    void openRequested(); // the pane's "Open…" button
    void recentChosen(const QString& path);
    // The list of documents changed (opened, removed, moved, pinned, located, or loaded with
    // its fingerprint and page count): the chat should keep chatDocuments().
    void documentsEdited();
    // Documents gained or lost a problem (see problem()).
    void problemsChanged();
    // The user asked to locate the file of the document at `row` (context menu).
    void locateRequested(int row);
    // The user attached an image file, or a page or a part of one (fractions of the page; an
    // empty region: the whole page), to the next question.
    void attachImageRequested(const QString& imagePath);
    void attachPageRequested(const QString& pdfPath, int page, const QRectF& region);
    // A document's text changed after it loaded (OCR of its scanned pages ended): what
    // depends on its text (sizes, the read-ahead) should follow.
    void documentTextChanged(const folio::ui::Document& document);
    // Something about OCR the user should know (a missing language pack, a page that could
    // not be read, a damaged cache entry read again, OCR stopped).
    void ocrMessage(const QString& message, bool error);

private:
    struct Entry {
        quint64 id = 0;
        ChatDocument saved; // as the chat keeps it
        bool restored = false;
        Problem problem = Problem::None;
    };
    void startLoad(const QString& path, const ChatDocument& saved, bool restored);
    int rowOf(quint64 id) const;
    void onLoaded(quint64 id, const Document& doc);
    void onReadProgress(const QString& path, int done, int total);
    void onReadFinished(const QString& path, const Document& doc);
    void updateBusy();
    void showListMenu(const QPoint& pos);
    void showPreviewMenu(const QPoint& pos);
    void addAttachActions(QMenu& menu, int row, int page);
    void addOcrActions(QMenu& menu, int row);
    void onOcrProgress(const QString& path, int done, int total, double etaSeconds);
    void onDocumentUpdated(const QString& path, const Document& doc);
    // Rows of `path` showing this read of it (same fingerprint) take `doc`; true if any did.
    bool showUpdatedDocument(const QString& path, const Document& doc);
    void onOcrFinished(const QString& path, const Document& doc, bool cancelled,
                       const QString& message);
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

    QListWidget* list_ = nullptr;
    QStackedWidget* preview_ = nullptr;
    QLabel* emptyLabel_ = nullptr;
    QLabel* imageLabel_ = nullptr;
    QPdfView* pdfView_ = nullptr;
    QPdfDocument* pdfDocument_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* pageLabel_ = nullptr;
    int citedPage_ = 0;
    QToolButton* recent_ = nullptr;
    QList<Document> documents_;
    QList<int> progress_;  // pages read so far, while loading
    QList<Entry> entries_; // per document: its place in the chat
    quint64 nextId_ = 1;
    LoadedDocuments* loaded_ = nullptr; // every file read once, for every chat
    bool busy_ = false;
    QString requestedPdf_; // being opened for the preview
    QString shownPdf_;     // in pdfDocument_
    int pendingPage_ = 0;  // a citation's page, shown once the preview has the document
    qint64 contextLimit_ = 0;
    double charsPerToken_ = 0;
    QHash<QString, QString> readingStatus_; // by fingerprint
    QHash<QString, QString> tokenLines_;    // by fingerprint
    QHash<QString, qint64> exactTokens_;    // by fingerprint
    QHash<QString, QString> ocrProgress_;   // by path, while OCR runs
    QHash<QString, QString> ocrProblem_;    // by path: the last OCR's problem
};

} // namespace folio::ui
