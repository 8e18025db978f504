#include "core/chat/chat_message.h"

#include <QCoreApplication>
#include <QObject>
#include <QStringList>

namespace folio::ui {

QString roleName(ChatMessage::Role role) {
    switch (role) {
    case ChatMessage::Role::System:
        return QCoreApplication::translate("folio::ui::ChatMessage", "System");
    case ChatMessage::Role::User:
        return QCoreApplication::translate("folio::ui::ChatMessage", "You");
    case ChatMessage::Role::Assistant:
        return QCoreApplication::translate("folio::ui::ChatMessage", "Folio");
    case ChatMessage::Role::Notice:
        return QCoreApplication::translate("folio::ui::ChatMessage", "Notice");
    }
    return {};
}

QString roleKey(ChatMessage::Role role) {
    switch (role) {
    case ChatMessage::Role::System:
        return QStringLiteral("system");
    case ChatMessage::Role::User:
        return QStringLiteral("user");
    case ChatMessage::Role::Assistant:
        return QStringLiteral("assistant");
    case ChatMessage::Role::Notice:
        return QStringLiteral("notice");
    }
    return {};
}

bool roleFromKey(const QString& key, ChatMessage::Role& out) {
    for (auto r : {ChatMessage::Role::System, ChatMessage::Role::User, ChatMessage::Role::Assistant,
                   ChatMessage::Role::Notice}) {
        if (roleKey(r) == key) {
            out = r;
            return true;
        }
    }
    return false;
}

QString stopReasonText(const QString& reason) {
    if (reason == QLatin1String("eos"))
        return QObject::tr("finished");
    if (reason == QLatin1String("stop"))
        return QObject::tr("stopped at a stop sequence");
    if (reason == QLatin1String("length"))
        return QObject::tr("stopped at the length limit");
    if (reason == QLatin1String("cancelled"))
        return QObject::tr("stopped");
    if (reason == QLatin1String("error"))
        return QObject::tr("failed");
    if (reason == QLatin1String("tool_calls"))
        return QObject::tr("called a tool");
    return reason; // a server's own reason, as it gave it
}

QString statsLine(const MessageStats& st) {
    if (st.stopReason.isEmpty())
        return {};
    // Nothing was run (refused before it went, failed at once, stopped while planned): no
    // figures to show, and no zeros that look like some.
    if (st.promptTokens == 0 && st.generatedTokens == 0)
        return st.stopReason == QLatin1String("cancelled") ? QObject::tr("stopped before an answer")
                                                           : QString();
    // Figures of what did not happen are left out: an answer stopped while its prompt was read
    // has no first token and no decode speed (not "TTFT 0 ms · 0.0 t/s").
    QStringList parts{
        QObject::tr("%1 prompt tokens (%2 reused)").arg(st.promptTokens).arg(st.reusedTokens)};
    const bool decoded = st.generatedTokens > 0;
    // Image encoding under 0.1 s is not worth a word.
    if (decoded && st.imageMs >= 100)
        parts << QObject::tr("TTFT %1 ms (%2 ms encoding images)")
                     .arg(st.ttftMs, 0, 'f', 0)
                     .arg(qMin(st.imageMs, st.ttftMs), 0, 'f', 0);
    else if (decoded)
        parts << QObject::tr("TTFT %1 ms").arg(st.ttftMs, 0, 'f', 0);
    if (st.prefillTps > 0)
        parts << QObject::tr("prefill %1 t/s").arg(st.prefillTps, 0, 'f', 1);
    if (decoded)
        parts << QObject::tr("decode %1 t/s").arg(st.decodeTps, 0, 'f', 1);
    parts << QObject::tr("%1 tokens").arg(st.generatedTokens) << stopReasonText(st.stopReason);
    return parts.join(QStringLiteral(" · "));
}

QString contextNoteLine(const ChatMessage& m) {
    return m.contextNote.isEmpty() ? QString()
                                   : QObject::tr("In the prompt: %1").arg(m.contextNote);
}

} // namespace folio::ui
