#include "chat/attachment_chips.h"

#include "style/palette_colors.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace folio::ui {

AttachmentChips::AttachmentChips(QWidget* parent) : QWidget(parent) {
    layout_ = new QHBoxLayout(this);
    layout_->setContentsMargins(0, 0, 0, 0);
    layout_->addStretch(1);
    hide();
    // In the palette's colours, again when the system theme changes.
    style::followPalette(this, [this] {
        for (QLabel* chip : findChildren<QLabel*>(QStringLiteral("attachmentChip")))
            chip->setStyleSheet(chipStyle());
    });
}

QString AttachmentChips::chipStyle() const {
    return style::labelStyle(palette(), style::Tone::Accent, 9, QStringLiteral("1px 8px"));
}

void AttachmentChips::setAttachments(const QStringList& names, const QList<int>& rows) {
    names_ = names;
    while (layout_->count() > 1) {
        QLayoutItem* item = layout_->takeAt(0);
        delete item->widget();
        delete item;
    }
    for (qsizetype i = 0; i < names.size(); ++i) {
        const QString& name = names[i];
        auto* box = new QWidget(this);
        auto* boxLayout = new QHBoxLayout(box);
        boxLayout->setContentsMargins(0, 0, 0, 0);
        boxLayout->setSpacing(0);
        // A long title is shortened in the middle: the chips' row sets the chat's narrowest
        // width.
        auto* chip = new QLabel(box);
        chip->setText(chip->fontMetrics().elidedText(name, Qt::ElideMiddle, 240));
        chip->setToolTip(name);
        chip->setObjectName(QStringLiteral("attachmentChip"));
        chip->setStyleSheet(chipStyle());
        boxLayout->addWidget(chip);
        if (i < rows.size()) {
            auto* remove = new QToolButton(box);
            remove->setObjectName(QStringLiteral("attachmentChipRemove"));
            remove->setText(QStringLiteral("×"));
            remove->setAutoRaise(true);
            remove->setToolTip(tr("Remove %1 from this chat").arg(name));
            const int row = rows[i];
            connect(remove, &QToolButton::clicked, this,
                    [this, row] { Q_EMIT removeRequested(row); });
            boxLayout->addWidget(remove);
        }
        layout_->insertWidget(layout_->count() - 1, box);
    }
    setVisible(!names.isEmpty());
}

} // namespace folio::ui
