#include "jobs/extract_table_action.h"

#include "backend/engine_worker.h"
#include "documents/documents_pane.h"
#include "jobs/table_dialog.h"
#include "jobs/table_extractor.h"

#include <QAction>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QStatusBar>

namespace folio::ui {

ExtractTableAction::ExtractTableAction(QMenu* menu, DocumentsPane* documents, EngineWorker* worker,
                                       QWidget* window)
    : QObject(window), documents_(documents), window_(window) {
    action_ = menu->addAction(tr("Extract &table from image"));
    action_->setObjectName(QStringLiteral("actionExtractTable"));
    action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    action_->setStatusTip(tr("Ask the model to read the selected chart or table image into a "
                             "table you can copy and export"));
    extractor_ = new TableExtractor(worker, this);
    connect(worker, &EngineWorker::modelLoaded, this, &ExtractTableAction::onModelLoaded);
    connect(worker, &EngineWorker::loadFailed, this, [this] { ready_ = false; });
    connect(menu, &QMenu::aboutToShow, this, &ExtractTableAction::refresh);
    connect(action_, &QAction::triggered, this, [this] {
        const QString image = selectedImage();
        if (!image.isEmpty())
            extractFrom(image);
    });
    refresh();
}

void ExtractTableAction::onModelLoaded(const ModelFactsQ& facts) {
    ready_ = true;
    // A server says whether it takes images; the embedded engine, whether it has a projector.
    seesImages_ = facts.acceptsImages;
    refresh();
}

QString ExtractTableAction::selectedImage() const {
    const int row = documents_->currentRow();
    const QList<Document>& docs = documents_->documents();
    if (row < 0 || row >= docs.size())
        return {};
    const Document& d = docs[row];
    return d.kind == Document::Kind::Image && d.state == Document::State::Ready ? d.path
                                                                                : QString();
}

void ExtractTableAction::refresh() {
    action_->setEnabled(!selectedImage().isEmpty());
}

bool ExtractTableAction::extractFrom(const QString& imagePath) {
    if (!dialog_) {
        dialog_ = new TableDialog(window_);
        connect(dialog_, &TableDialog::stopRequested, extractor_, &TableExtractor::cancel);
        connect(dialog_, &TableDialog::stopRequested, dialog_,
                [this] { dialog_->showError(tr("Table extraction was stopped.")); });
        connect(dialog_, &QDialog::rejected, extractor_, &TableExtractor::cancel);
        connect(extractor_, &TableExtractor::extracted, dialog_, &TableDialog::showResult);
        connect(extractor_, &TableExtractor::failed, dialog_,
                [this](const QString& message) { dialog_->showError(message); });
        connect(dialog_, &TableDialog::retryRequested, this, [this] {
            if (!lastImage_.isEmpty())
                extractFrom(lastImage_);
        });
        // Where the table went stays in the window's status bar after the dialog closes.
        connect(dialog_, &TableDialog::saved, this, [this](const QString& message) {
            if (auto* window = qobject_cast<QMainWindow*>(window_))
                window->statusBar()->showMessage(message, 10000);
        });
    }
    dialog_->show();
    dialog_->raise();
    lastImage_ = imagePath;
    if (!ready_) {
        dialog_->showError(tr("No model is ready: open a model (with a vision projector) or "
                              "connect to a server first."));
        return false;
    }
    if (!seesImages_) {
        dialog_->showError(
            tr("The model cannot see images: load a vision projector with the model "
               "(Settings → Vision projector, or --mmproj), or use a server that takes images."));
        return false;
    }
    dialog_->showWaiting(QFileInfo(imagePath).fileName());
    extractor_->extract(imagePath);
    return true;
}

} // namespace folio::ui
