#pragma once
// Edit → Find… (Ctrl+F) and Find next (F3): a find bar over the chat's transcript and one over
// the PDF preview; Ctrl+F opens the preview's when the focus is in the Documents pane (`scope`),
// else the transcript's.

#include <QObject>

class QMenu;
class QPdfView;
class QTextBrowser;
class QWidget;

namespace folio::ui {

class FindBar;

class FindActions : public QObject {
    Q_OBJECT
public:
    // `pdf` may be null (no preview: the transcript's bar only).
    FindActions(QMenu* edit, QTextBrowser* transcript, QPdfView* pdf, QWidget* scope,
                QObject* parent);

    void find();

private:
    QWidget* scope_;
    FindBar* transcriptFind_ = nullptr;
    FindBar* pdfFind_ = nullptr;
};

} // namespace folio::ui
