#include "documents/page_crop_dialog.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPdfDocument>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace folio::ui {

namespace {

// The page for the dialog: at most 1,200 pixels on its long side (enough to aim; the part is
// rendered again for the model).
QImage renderForSelection(const QString& pdfPath, int page) {
    QPdfDocument pdf;
    if (pdf.load(pdfPath) != QPdfDocument::Error::None || page < 1 || page > pdf.pageCount())
        return {};
    const QSizeF points = pdf.pagePointSize(page - 1);
    const QSize size = points.scaled(QSizeF(1200, 1200), Qt::KeepAspectRatio).toSize();
    return pdf.render(page - 1, size.expandedTo(QSize(1, 1)));
}

} // namespace

PageSelectionView::PageSelectionView(QWidget* parent) : QWidget(parent) {
    setCursor(Qt::CrossCursor);
    setMinimumSize(240, 300);
    setAccessibleName(tr("Page: drag a rectangle to select a part of it"));
}

void PageSelectionView::setPage(const QImage& page) {
    page_ = page;
    update();
}

void PageSelectionView::setSelection(const QRectF& fractions) {
    selection_ = fractions.normalized().intersected(QRectF(0, 0, 1, 1));
    update();
    Q_EMIT selectionChanged(selection_);
}

QRect PageSelectionView::pageRect() const {
    if (page_.isNull())
        return {};
    const QSize s = page_.size().scaled(size(), Qt::KeepAspectRatio);
    return QRect(QPoint((width() - s.width()) / 2, (height() - s.height()) / 2), s);
}

QPointF PageSelectionView::toFraction(const QPointF& p) const {
    const QRect r = pageRect();
    if (r.isEmpty())
        return {};
    return {std::clamp((p.x() - r.x()) / r.width(), 0.0, 1.0),
            std::clamp((p.y() - r.y()) / r.height(), 0.0, 1.0)};
}

void PageSelectionView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().window());
    if (page_.isNull())
        return;
    const QRect r = pageRect();
    painter.drawImage(r, page_);
    if (selection_.isEmpty())
        return;
    const QRectF sel(r.x() + selection_.x() * r.width(), r.y() + selection_.y() * r.height(),
                     selection_.width() * r.width(), selection_.height() * r.height());
    // Dim what is outside the selection; outline it in the highlight colour.
    QColor shade = palette().color(QPalette::Shadow);
    shade.setAlpha(90);
    QPainterPath outside;
    outside.addRect(r);
    QPainterPath inside;
    inside.addRect(sel);
    painter.fillPath(outside.subtracted(inside), shade);
    painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
    painter.drawRect(sel);
}

void PageSelectionView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || page_.isNull())
        return;
    dragging_ = true;
    anchor_ = toFraction(event->position());
    setSelection(QRectF(anchor_, anchor_));
}

void PageSelectionView::mouseMoveEvent(QMouseEvent* event) {
    if (dragging_)
        setSelection(QRectF(anchor_, toFraction(event->position())));
}

void PageSelectionView::mouseReleaseEvent(QMouseEvent* event) {
    if (!dragging_ || event->button() != Qt::LeftButton)
        return;
    dragging_ = false;
    setSelection(QRectF(anchor_, toFraction(event->position())));
}

PageCropDialog::PageCropDialog(const QString& pdfPath, int page, QWidget* parent)
    : QDialog(parent), pdfPath_(pdfPath), page_(page) {
    setObjectName(QStringLiteral("pageCropDialog"));
    setWindowTitle(
        tr("Attach a part of page %1 of %2").arg(page).arg(QFileInfo(pdfPath).fileName()));
    auto* layout = new QVBoxLayout(this);
    status_ = new QLabel(tr("Rendering page %1…").arg(page), this);
    status_->setWordWrap(true);
    layout->addWidget(status_);
    view_ = new PageSelectionView(this);
    view_->setObjectName(QStringLiteral("pageSelection"));
    layout->addWidget(view_, 1);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    auto* attach = buttons_->addButton(tr("Attach to the question"), QDialogButtonBox::AcceptRole);
    attach->setObjectName(QStringLiteral("attachSelection"));
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons_);
    connect(view_, &PageSelectionView::selectionChanged, this, &PageCropDialog::updateButtons);
    updateButtons();

    auto* watcher = new QFutureWatcher<QImage>(this);
    connect(watcher, &QFutureWatcher<QImage>::finished, this, [this, watcher] {
        watcher->deleteLater();
        const QImage image = watcher->result();
        rendered_ = true;
        if (image.isNull()) {
            status_->setText(tr("Page %1 of %2 could not be rendered: check that the file is "
                                "still there and is a readable PDF.")
                                 .arg(page_)
                                 .arg(pdfPath_));
        } else {
            status_->setText(tr("Drag a rectangle around the chart or table to attach."));
            view_->setPage(image);
        }
        Q_EMIT rendered();
    });
    watcher->setFuture(
        QtConcurrent::run([pdfPath, page] { return renderForSelection(pdfPath, page); }));
}

QRectF PageCropDialog::region() const {
    return view_->selection();
}

void PageCropDialog::updateButtons() {
    const QRectF s = view_->selection();
    // A selection of a few pixels is a click, not a part.
    const bool usable = s.width() > 0.01 && s.height() > 0.01;
    for (QAbstractButton* b : buttons_->buttons())
        if (buttons_->buttonRole(b) == QDialogButtonBox::AcceptRole)
            b->setEnabled(usable);
}

} // namespace folio::ui
