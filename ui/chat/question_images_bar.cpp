#include "chat/question_images_bar.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPixmap>
#include <QToolButton>

namespace folio::ui {

namespace {
constexpr int kThumbHeight = 40;
}

QuestionImagesBar::QuestionImagesBar(QWidget* parent) : QWidget(parent) {
    layout_ = new QHBoxLayout(this);
    layout_->setContentsMargins(0, 0, 0, 0);
    layout_->addStretch(1);
    setAccessibleName(tr("Images for the next question"));
    hide();
}

void QuestionImagesBar::add(const QuestionImage& image) {
    for (const QuestionImage& i : images_)
        if (i.file == image.file)
            return;
    images_.append(image);
    rebuild();
}

void QuestionImagesBar::remove(int index) {
    if (index < 0 || index >= images_.size())
        return;
    images_.removeAt(index);
    rebuild();
}

void QuestionImagesBar::clear() {
    if (images_.isEmpty())
        return;
    images_.clear();
    rebuild();
}

QList<QuestionImage> QuestionImagesBar::take() {
    QList<QuestionImage> out = images_;
    clear();
    return out;
}

QStringList QuestionImagesBar::labels() const {
    QStringList out;
    for (const QuestionImage& i : images_)
        out << i.label();
    return out;
}

void QuestionImagesBar::rebuild() {
    while (layout_->count() > 1) {
        QLayoutItem* item = layout_->takeAt(0);
        if (QWidget* w = item->widget()) { // later: its remove button may be what called us
            w->hide();
            w->deleteLater();
        }
        delete item;
    }
    for (qsizetype k = 0; k < images_.size(); ++k) {
        const QuestionImage& image = images_[k];
        auto* chip = new QFrame(this);
        chip->setObjectName(QStringLiteral("questionImageChip"));
        chip->setFrameShape(QFrame::StyledPanel);
        chip->setBackgroundRole(QPalette::AlternateBase);
        chip->setAutoFillBackground(true);
        auto* row = new QHBoxLayout(chip);
        row->setContentsMargins(3, 2, 2, 2);
        row->setSpacing(4);
        auto* thumb = new QLabel(chip);
        const QImage picture = questionImageThumbnail(image.file, kThumbHeight);
        if (!picture.isNull())
            thumb->setPixmap(QPixmap::fromImage(picture));
        else
            thumb->setText(tr("(missing)"));
        row->addWidget(thumb);
        auto* label = new QLabel(image.label(), chip);
        label->setObjectName(QStringLiteral("questionImageLabel"));
        row->addWidget(label);
        auto* removeButton = new QToolButton(chip);
        removeButton->setObjectName(QStringLiteral("questionImageRemove"));
        removeButton->setText(QStringLiteral("×"));
        removeButton->setAutoRaise(true);
        removeButton->setToolTip(tr("Do not send %1 with the question").arg(image.label()));
        removeButton->setAccessibleName(tr("Remove %1").arg(image.label()));
        const QString file = image.file;
        connect(removeButton, &QToolButton::clicked, this, [this, file] {
            for (qsizetype i = 0; i < images_.size(); ++i)
                if (images_[i].file == file) {
                    remove(int(i));
                    return;
                }
        });
        row->addWidget(removeButton);
        chip->setToolTip(image.label());
        chip->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(chip, &QWidget::customContextMenuRequested, this, [this, chip, image](QPoint pos) {
            QMenu menu(this);
            menu.addAction(tr("Extract table"), this,
                           [this, image] { Q_EMIT extractTableRequested(image); });
            menu.exec(chip->mapToGlobal(pos));
        });
        layout_->insertWidget(layout_->count() - 1, chip);
    }
    setVisible(!images_.isEmpty());
    Q_EMIT imagesChanged();
}

} // namespace folio::ui
