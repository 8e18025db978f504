#pragma once
// "Attach a part of page K…": the page rendered in the dialog (off the GUI thread), a rectangle
// dragged on it with the mouse, and Attach (issue #23). The part is given as fractions of the
// page's width and height, so it is rendered again at the projector's resolution.

#include <QDialog>
#include <QImage>
#include <QRectF>

class QDialogButtonBox;
class QLabel;

namespace folio::ui {

// The page with the rectangle being selected.
class PageSelectionView : public QWidget {
    Q_OBJECT
public:
    explicit PageSelectionView(QWidget* parent = nullptr);
    void setPage(const QImage& page);
    bool hasPage() const { return !page_.isNull(); }
    // The selection in fractions of the page (empty: none).
    QRectF selection() const { return selection_; }
    void setSelection(const QRectF& fractions);
    // Where the page is drawn in the widget (tests map fractions to mouse positions with it).
    QRect pageRect() const;
    QSize sizeHint() const override { return {560, 720}; }

Q_SIGNALS:
    void selectionChanged(const QRectF& fractions);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    QPointF toFraction(const QPointF& widgetPos) const;

    QImage page_;
    QRectF selection_;
    QPointF anchor_;
    bool dragging_ = false;
};

class PageCropDialog : public QDialog {
    Q_OBJECT
public:
    // Page `page` (1-based) of the PDF at `pdfPath`; the page is rendered in the thread pool.
    PageCropDialog(const QString& pdfPath, int page, QWidget* parent = nullptr);

    QString pdfPath() const { return pdfPath_; }
    int page() const { return page_; }
    QRectF region() const;
    PageSelectionView* view() const { return view_; }
    // True once the page is shown (or its error).
    bool isRendered() const { return rendered_; }

Q_SIGNALS:
    void rendered();

private:
    void updateButtons();

    QString pdfPath_;
    int page_;
    bool rendered_ = false;
    PageSelectionView* view_ = nullptr;
    QLabel* status_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;
};

} // namespace folio::ui
