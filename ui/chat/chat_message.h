#pragma once
// A message of a chat transcript.

#include <QDateTime>
#include <QString>

namespace folio::ui {

struct ChatMessage {
    enum class Role { System, User, Assistant, Notice };
    Role role = Role::User;
    QString text;
    QDateTime time;
};

QString roleName(ChatMessage::Role role);

} // namespace folio::ui
