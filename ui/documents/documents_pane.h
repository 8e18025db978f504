#pragma once
// The Documents pane: the list of opened PDFs and images (page counts, token estimates,
// errors) and a preview of the selected one. Loading runs off the GUI thread.

#include "documents/document.h"

#include <QHash>
#include <QList>
#include <QWidget>

class QLabel;
class QToolButton;
class QListWidget;
class QPdfDocument;
class QPdfView;
class QStackedWidget;

namespace folio::ui {

class DocumentsPane : public QWidget {
    Q_OBJECT
public:
    explicit DocumentsPane(QWidget* parent = nullptr);

    // Starts loading each file in the background; unsupported files are reported and skipped.
    void openFiles(const QStringList& paths);
    const QList<Document>& documents() const { return documents_; }
    int pendingLoads() const { return pending_; }
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
    // The page the preview shows (1-based; 0 when it shows no PDF).
    int previewPage() const;
    // The row of the document the preview shows (-1: none).
    int currentRow() const;

public Q_SLOTS:
    // A line under the document's list item about its background reading ("reading 40% · 1 min
    // left", "read · in the cache"); "" removes it. `fingerprint`: Document::fingerprint.
    void setReadingStatus(const QString& fingerprint, const QString& text);
    // The document's exact size line, shown instead of the estimate ("12,345 tokens · fits").
    void setTokenLine(const QString& fingerprint, const QString& text);

Q_SIGNALS:
    void documentLoaded(const folio::ui::Document& document);
    void loadFailed(const QString& message);
    void busyChanged(bool busy);
    void openRequested(); // the pane's "Open…" button
    void recentChosen(const QString& path);
    void filesDropped(const QStringList& paths);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void onLoaded(int index, const Document& doc);
    void showPreview(int row);
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
    QToolButton* recent_ = nullptr;
    QList<Document> documents_;
    QList<int> progress_;  // pages read so far, while loading
    QString requestedPdf_; // being opened for the preview
    QString shownPdf_;     // in pdfDocument_
    int pendingPage_ = 0;  // a citation's page, shown once the preview has the document
    int pending_ = 0;
    qint64 contextLimit_ = 0;
    double charsPerToken_ = 0;
    QHash<QString, QString> readingStatus_; // by fingerprint
    QHash<QString, QString> tokenLines_;    // by fingerprint
};

} // namespace folio::ui
