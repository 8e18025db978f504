#pragma once
// A turn of the conversation as the prompt holds it (what the chat sends to the backend).

#include <QMetaType>
#include <QString>
#include <QStringList>

namespace folio::ui {

struct ChatTurn {
    QString role; // system | user | assistant
    QString content;
    QStringList images; // image files attached to a user turn (used with a vision projector)
};

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::ChatTurn)
