#include "notifications/notification_area.h"

#include <QDebug>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace folio::ui {

NotificationArea::NotificationArea(QWidget* parent) : QWidget(parent) {
    layout_ = new QVBoxLayout(this);
    layout_->setContentsMargins(0, 0, 0, 0);
    layout_->setSpacing(2);
    setAccessibleName(tr("Notifications"));
    hide();
}

int NotificationArea::post(Kind kind, const QString& text, const QString& actionText,
                           std::function<void()> action, int timeoutMs) {
    // The same message twice says nothing new: the one shown stays (issue #48 §10).
    for (const Item& item : std::as_const(items_))
        if (item.text == text && actionText.isEmpty())
            return item.id;
    const int id = nextId_++;
    if (kind == Kind::Error)
        qWarning().noquote() << "folio:" << text;
    else
        qInfo().noquote() << "folio:" << text;

    auto* frame = new QFrame(this);
    frame->setObjectName(kind == Kind::Error ? QStringLiteral("errorNotification")
                                             : QStringLiteral("infoNotification"));
    frame->setFrameShape(QFrame::StyledPanel);
    frame->setAutoFillBackground(true);
    frame->setBackgroundRole(kind == Kind::Error ? QPalette::ToolTipBase : QPalette::AlternateBase);
    frame->setForegroundRole(kind == Kind::Error ? QPalette::ToolTipText : QPalette::WindowText);
    auto* row = new QHBoxLayout(frame);
    row->setContentsMargins(6, 3, 3, 3);
    auto* icon = new QLabel(frame);
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    icon->setPixmap(style()
                        ->standardIcon(kind == Kind::Error ? QStyle::SP_MessageBoxWarning
                                                           : QStyle::SP_MessageBoxInformation)
                        .pixmap(size, size));
    row->addWidget(icon, 0, Qt::AlignTop);
    auto* label = new QLabel(text, frame);
    label->setObjectName(QStringLiteral("notificationText"));
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setForegroundRole(frame->foregroundRole());
    row->addWidget(label, 1);
    if (!actionText.isEmpty()) {
        auto* button = new QPushButton(actionText, frame);
        button->setObjectName(QStringLiteral("notificationAction"));
        connect(button, &QPushButton::clicked, this, [this, id, action] {
            dismiss(id);
            if (action)
                action();
        });
        row->addWidget(button, 0, Qt::AlignTop);
    }
    auto* close = new QToolButton(frame);
    close->setObjectName(QStringLiteral("notificationClose"));
    close->setAutoRaise(true);
    close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close->setToolTip(tr("Dismiss"));
    close->setAccessibleName(tr("Dismiss notification"));
    connect(close, &QToolButton::clicked, this, [this, id] { dismiss(id); });
    row->addWidget(close, 0, Qt::AlignTop);
    if (timeoutMs > 0)
        QTimer::singleShot(timeoutMs, frame, [this, id] { dismiss(id); });

    layout_->addWidget(frame);
    items_.append({id, frame, text});
    show();
    Q_EMIT posted(text);
    return id;
}

void NotificationArea::dismiss(int id) {
    for (qsizetype i = 0; i < items_.size(); ++i) {
        if (items_[i].id != id)
            continue;
        QWidget* w = items_.takeAt(i).widget;
        w->hide();
        w->deleteLater();
        break;
    }
    setVisible(!items_.isEmpty());
}

QStringList NotificationArea::texts() const {
    QStringList out;
    for (const Item& item : items_)
        out << item.text;
    return out;
}

} // namespace folio::ui
