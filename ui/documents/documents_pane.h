#pragma once
// The Documents pane: the list of opened PDFs and images (page counts, token estimates,
// errors) and a preview of the selected one. Loading runs off the GUI thread.

#include "documents/document.h"

#include <QList>
#include <QWidget>

class QLabel;
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

Q_SIGNALS:
    void documentLoaded(const folio::ui::Document& document);
    void loadFailed(const QString& message);
    void busyChanged(bool busy);
    void openRequested(); // the pane's "Open…" button

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void onLoaded(int index, const Document& doc);
    void showPreview(int row);
    void refreshItem(int row);

    QListWidget* list_ = nullptr;
    QStackedWidget* preview_ = nullptr;
    QLabel* emptyLabel_ = nullptr;
    QLabel* imageLabel_ = nullptr;
    QPdfView* pdfView_ = nullptr;
    QPdfDocument* pdfDocument_ = nullptr;
    QLabel* summary_ = nullptr;
    QList<Document> documents_;
    int pending_ = 0;
};

} // namespace folio::ui
