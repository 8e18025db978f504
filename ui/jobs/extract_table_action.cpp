#include "jobs/extract_table_action.h"

#include "backend/engine_worker.h"
#include "chat/question_images_bar.h"
#include "core/chat/question_image.h"
#include "core/chat/table_figures.h"
#include "documents/documents_pane.h"
#include "jobs/table_dialog.h"
#include "jobs/table_extractor.h"

#include <QAction>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMainWindow>
#include <QMenu>
#include <QPointer>
#include <QStatusBar>
#include <QtConcurrent>

#include <algorithm>

namespace folio::ui {

ExtractTableAction::ExtractTableAction(QMenu* menu, DocumentsPane* documents, EngineWorker* worker,
                                       QWidget* window)
    : QObject(window), documents_(documents), window_(window) {
    action_ = menu->addAction(tr("Extract &table from image"));
    action_->setObjectName(QStringLiteral("actionExtractTable"));
    action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    action_->setStatusTip(tr("Ask the model to read the selected chart or table image, or the "
                             "table on the page shown, into a table you can copy and export"));
    extractor_ = new TableExtractor(worker, this);
    connect(worker, &EngineWorker::modelLoaded, this, &ExtractTableAction::onModelLoaded);
    connect(worker, &EngineWorker::loadFailed, this, [this] { ready_ = false; });
    connect(menu, &QMenu::aboutToShow, this, &ExtractTableAction::refresh);
    connect(action_, &QAction::triggered, this, [this] {
        const QString image = selectedImage();
        if (!image.isEmpty()) {
            extractFrom(image);
            return;
        }
        const int row = documents_->currentRow();
        if (row >= 0 && row < documents_->documents().size())
            extractFromPage(documents_->documents()[row].path,
                            std::max(1, documents_->previewPage()));
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
    const int row = documents_->currentRow();
    const QList<Document>& docs = documents_->documents();
    const bool pdf = row >= 0 && row < docs.size() && docs[row].kind == Document::Kind::Pdf &&
                     docs[row].state == Document::State::Ready;
    // Before the preview shows the PDF it reads page 1, as the action would.
    action_->setText(
        pdf ? tr("Extract &table from page %1").arg(std::max(1, documents_->previewPage()))
            : tr("Extract &table from image"));
    action_->setEnabled(pdf || !selectedImage().isEmpty());
}

void ExtractTableAction::ensureDialog() {
    if (dialog_)
        return;
    dialog_ = new TableDialog(window_);
    connect(dialog_, &TableDialog::stopRequested, extractor_, &TableExtractor::cancel);
    connect(dialog_, &TableDialog::stopRequested, dialog_,
            [this] { dialog_->showError(tr("Table extraction was stopped.")); });
    connect(dialog_, &QDialog::rejected, extractor_, &TableExtractor::cancel);
    connect(extractor_, &TableExtractor::extracted, dialog_, &TableDialog::showResult);
    // After the table is shown: its figures against the page it came from.
    connect(extractor_, &TableExtractor::extracted, this, &ExtractTableAction::checkFigures);
    connect(extractor_, &TableExtractor::failed, dialog_,
            [this](const QString& message) { dialog_->showError(message); });
    connect(dialog_, &TableDialog::retryRequested, this, [this] {
        if (!lastImage_.isEmpty())
            extractFrom(lastImage_, lastOrigin_);
    });
    // Where the table went stays in the window's status bar after the dialog closes.
    connect(dialog_, &TableDialog::saved, this, [this](const QString& message) {
        if (auto* window = qobject_cast<QMainWindow*>(window_))
            window->statusBar()->showMessage(message, 10000);
    });
    connect(dialog_, &TableDialog::figurePageRequested, this,
            [this](int page, const QString& match) {
                const QList<Document>& docs = documents_->documents();
                for (int row = 0; row < docs.size(); ++row)
                    if (docs[row].path == lastOrigin_.pdfPath) {
                        documents_->showMatch(row, page, match);
                        return;
                    }
            });
}

bool ExtractTableAction::canExtract() {
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
    return true;
}

bool ExtractTableAction::extractFrom(const QString& imagePath, const TableOrigin& origin) {
    ensureDialog();
    dialog_->show();
    dialog_->raise();
    ++generation_;
    lastImage_ = imagePath;
    lastOrigin_ = origin;
    if (!canExtract())
        return false;
    dialog_->showWaiting(
        origin.isPdf()
            ? tr("%1, page %2").arg(QFileInfo(origin.pdfPath).fileName()).arg(origin.pages.first())
            : QFileInfo(imagePath).fileName());
    extractor_->extract(imagePath);
    return true;
}

bool ExtractTableAction::extractFromPage(const QString& pdfPath, int page) {
    ensureDialog();
    dialog_->show();
    dialog_->raise();
    const int generation = ++generation_;
    lastImage_.clear();
    lastOrigin_ = {pdfPath, {page}};
    if (!canExtract())
        return false;
    extractor_->cancel();
    dialog_->showWaiting(tr("%1, page %2").arg(QFileInfo(pdfPath).fileName()).arg(page));
    // The page as the question's page images are rendered (the projector's canvas), kept with
    // them, so Retry sends the same picture.
    auto* watcher = new QFutureWatcher<QuestionImageResult>(this);
    connect(watcher, &QFutureWatcher<QuestionImageResult>::finished, this,
            [this, watcher, generation, pdfPath, page] {
                watcher->deleteLater();
                const QuestionImageResult result = watcher->result();
                if (generation != generation_)
                    return;
                if (!result.ok()) {
                    dialog_->showError(result.error, false);
                    return;
                }
                extractFrom(result.image.file, {pdfPath, {page}});
            });
    watcher->setFuture(QtConcurrent::run([pdfPath, page] {
        return pageQuestionImage(pdfPath, page, QRectF(), PageRenderParams{},
                                 defaultQuestionImageDir());
    }));
    return true;
}

void ExtractTableAction::checkFigures(const TableParse& parse) {
    if (!parse.ok() || !lastOrigin_.isPdf())
        return;
    const QList<Document>& docs = documents_->documents();
    const auto doc = std::find_if(docs.begin(), docs.end(), [this](const Document& d) {
        return d.path == lastOrigin_.pdfPath && d.state == Document::State::Ready &&
               d.kind == Document::Kind::Pdf;
    });
    if (doc == docs.end())
        return; // the PDF is not open: nothing to check against
    const FigureSource source{doc->title, QFileInfo(doc->path).fileName(), doc->pageTexts};
    const QList<int> pages = lastOrigin_.pages;
    const MarkdownTable table = parse.table;
    const int generation = generation_;
    ++checksRunning_;
    auto* watcher = new QFutureWatcher<QList<CellFigure>>(this);
    connect(watcher, &QFutureWatcher<QList<CellFigure>>::finished, this,
            [this, watcher, generation, source, pages] {
                watcher->deleteLater();
                --checksRunning_;
                if (generation == generation_ && dialog_ && dialog_->hasTable())
                    dialog_->showFigures(watcher->result(), source.title, pages);
            });
    watcher->setFuture(QtConcurrent::run(
        [table, source, pages] { return checkTableFigures(table, source, pages); }));
}

void ExtractTableAction::followQuestionImages(QuestionImagesBar* bar) {
    connect(bar, &QuestionImagesBar::extractTableRequested, this,
            [this](const QuestionImage& image) {
                TableOrigin origin;
                if (image.kind != QuestionImage::Kind::File)
                    origin = {image.source, {image.page}};
                extractFrom(image.file, origin);
            });
}

} // namespace folio::ui
