#pragma once
// "Extract table" in the main window: on the image selected in the Documents pane, asks the
// model for its table (TableExtractor) and shows it (TableDialog). Offered when an image is
// selected; refused with a reason when the model cannot see images (no vision projector, or a
// server that does not take them) or no model is ready.

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
    // dialog, when the model cannot take it.
    bool extractFrom(const QString& imagePath);
    TableDialog* dialog() const { return dialog_; }
    TableExtractor* extractor() const { return extractor_; }

private:
    void onModelLoaded(const ModelFactsQ& facts);
    void refresh();

    DocumentsPane* documents_;
    QWidget* window_;
    QAction* action_ = nullptr;
    TableExtractor* extractor_ = nullptr;
    TableDialog* dialog_ = nullptr;
    bool ready_ = false;
    bool seesImages_ = false;
    QString lastImage_; // what Retry asks about again
};

} // namespace folio::ui
