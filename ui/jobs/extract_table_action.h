#pragma once
// "Extract table" in the main window: on the image selected in the Documents pane, asks the
// model for its table (TableExtractor) and shows it (TableDialog). Offered when an image is
// selected; refused with a reason when the model cannot see images (no vision projector, or a
// server that does not take them) or no model is ready. With a PDF selected it reads the page
// shown in the preview (rendered as the question's page images are). A table read from a PDF's
// page (that one, or a page or part of one attached to the question) has its figures checked
// against the page (issue #46 §2, core/chat/table_figures.h) in the thread pool; double-clicking
// a marked cell opens the page it is on.

#include <QList>
#include <QObject>
#include <QString>

class QAction;
class QMenu;
class QWidget;

namespace folio::ui {

class DocumentsPane;
class EngineWorker;
class TableDialog;
class TableExtractor;
struct ModelFactsQ;
struct TableParse;

// What an image given to the extraction was made of: pages of a PDF ("" / none: an image file).
struct TableOrigin {
    QString pdfPath;
    QList<int> pages; // 1-based
    bool isPdf() const { return !pdfPath.isEmpty() && !pages.isEmpty(); }
};

class QuestionImagesBar;

class ExtractTableAction : public QObject {
    Q_OBJECT
public:
    // Adds the action to `menu`; `window` parents the dialog.
    ExtractTableAction(QMenu* menu, DocumentsPane* documents, EngineWorker* worker,
                       QWidget* window);

    QAction* action() const { return action_; }
    // The image the action works on: the selected document when it is a ready image ("" else).
    QString selectedImage() const;
    // Starts an extraction of `imagePath` (shows the dialog). False, with the reason in the
    // dialog, when the model cannot take it. `origin`: the PDF pages the image shows, whose
    // text the table's figures are checked against.
    bool extractFrom(const QString& imagePath, const TableOrigin& origin = {});
    // "Extract table" on an image attached to the question (a chart, or a page or part of one:
    // its figures are then checked against that page).
    void followQuestionImages(QuestionImagesBar* bar);
    // Renders page `page` (1-based) of the PDF at `pdfPath` in the thread pool, then extracts
    // its table (checked against that page). False when the page cannot be rendered.
    bool extractFromPage(const QString& pdfPath, int page);
    // Figures checks under way (tests wait for none).
    int figureChecksRunning() const { return checksRunning_; }
    TableDialog* dialog() const { return dialog_; }
    TableExtractor* extractor() const { return extractor_; }

private:
    void onModelLoaded(const ModelFactsQ& facts);
    void refresh();
    void ensureDialog();
    bool canExtract();
    void checkFigures(const TableParse& parse);

    DocumentsPane* documents_;
    QWidget* window_;
    QAction* action_ = nullptr;
    TableExtractor* extractor_ = nullptr;
    TableDialog* dialog_ = nullptr;
    bool ready_ = false;
    bool seesImages_ = false;
    QString lastImage_; // what Retry asks about again
    TableOrigin lastOrigin_;
    int generation_ = 0; // each extraction's; a figures check of an older one is dropped
    int checksRunning_ = 0;
};

} // namespace folio::ui
