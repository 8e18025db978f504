// ChatPane: answers and jobs writing into their own chat by its id, shown or not (issue #48
// §7) — messages appended, streamed text, tool calls, stats, an answer cut off, checked
// figures, a question's context note, and what the chat is busy with. The transcript follows
// when the chat is the one shown. The rest of the pane is in chat_pane.cpp.
#include "chat/chat_pane.h"

#include "chat/transcript_view.h"
#include "core/chat/chat_edits.h"

#include <QScrollBar>

#include <utility>

namespace folio::ui {

void ChatPane::appendMessageTo(const QString& chatId, ChatMessage::Role role, const QString& text) {
    const int index = library_->indexOf(chatId);
    if (index < 0)
        return;
    const ChatLibrary::Work work = library_->work(chatId);
    const bool streaming =
        work == ChatLibrary::Work::Answering || work == ChatLibrary::Work::Summarizing;
    if (streaming && role == ChatMessage::Role::Notice) {
        // The answer being streamed stays the last message; the notice follows it.
        pendingNotices_.append({chatId, text});
        return;
    }
    ChatMessage m;
    m.role = role;
    m.text = text;
    m.time = QDateTime::currentDateTime();
    ChatSession& chat = *library_->find(chatId);
    folio::ui::appendMessage(chat, std::move(m));
    if (isShown(chatId))
        transcript_->appendLast(chat.messages, streaming || role == ChatMessage::Role::Assistant);
    if (role != ChatMessage::Role::Assistant) {
        library_->save(index);
        refreshList();
    }
}

void ChatPane::appendToLast(const QString& chatId, const QString& text) {
    const int index = library_->indexOf(chatId);
    if (index < 0 || library_->chats().at(index).messages.isEmpty())
        return;
    auto& messages = library_->find(chatId)->messages;
    messages.last().text += text;
    if (isShown(chatId))
        transcript_->updateLast(messages.last());
    Q_EMIT streamed(text);
    // What streamed so far is on disk within a second: a crash loses at most that (issue #48).
    if (library_->isBusy(chatId) && streamSaved_.elapsed() >= kStreamSaveMs) {
        streamSaved_.restart();
        library_->saveUnfinished(tr("Folio stopped before this answer was finished."), index);
    }
}

void ChatPane::setLastStats(const QString& chatId, const MessageStats& stats) {
    const int index = library_->indexOf(chatId);
    if (index < 0 || library_->chats().at(index).messages.isEmpty())
        return;
    auto& messages = library_->find(chatId)->messages;
    messages.last().stats = stats;
    library_->save(index);
    refreshList();
    if (!library_->isBusy(chatId) && isShown(chatId))
        transcript_->finishLast(messages.last());
}

void ChatPane::setToolCall(const QString& chatId, int index, const ToolCallRecord& call) {
    ChatSession* chat = library_->find(chatId);
    if (!chat || chat->messages.isEmpty() || index < 0)
        return;
    auto& calls = chat->messages.last().toolCalls;
    while (calls.size() <= index)
        calls.append(ToolCallRecord());
    calls[index] = call;
    if (isShown(chatId))
        transcript_->updateLast(chat->messages.last());
}

void ChatPane::resetLastText(const QString& chatId) {
    setLastText(chatId, QString());
}

void ChatPane::setLastText(const QString& chatId, const QString& text) {
    ChatSession* chat = library_->find(chatId);
    if (!chat || chat->messages.isEmpty() || chat->messages.last().text == text)
        return;
    chat->messages.last().text = text;
    if (isShown(chatId))
        transcript_->updateLast(chat->messages.last());
}

void ChatPane::setLastInterrupted(const QString& chatId, const QString& reason) {
    ChatSession* chat = library_->find(chatId);
    if (!chat || chat->messages.isEmpty())
        return;
    chat->messages.last().interrupted = reason;
    if (isShown(chatId))
        transcript_->updateLast(chat->messages.last());
}

bool ChatPane::replaceAnswerText(const QString& chatId, qint64 messageId, const QString& was,
                                 const QString& text) {
    const int index = library_->indexOf(chatId);
    ChatSession* chat = library_->find(chatId);
    if (!chat)
        return false;
    for (qsizetype i = 0; i < chat->messages.size(); ++i) {
        ChatMessage& m = chat->messages[i];
        if (m.role != ChatMessage::Role::Assistant || m.id != messageId || m.text != was)
            continue;
        m.text = text;
        library_->save(index);
        if (isShown(chatId)) {
            const int scroll = transcript_->verticalScrollBar()->value();
            transcript_->showMessages(chat->messages, isGenerating());
            transcript_->verticalScrollBar()->setValue(scroll);
        }
        return true;
    }
    return false;
}

void ChatPane::setAnswerFigures(const QString& chatId, qint64 messageId, const QString& text,
                                const QList<CheckedFigure>& figures) {
    const int index = library_->indexOf(chatId);
    ChatSession* chat = library_->find(chatId);
    if (!chat)
        return;
    for (QList<ChatMessage>* list : {&chat->messages, &chat->otherVersions})
        for (qsizetype i = 0; i < list->size(); ++i) {
            ChatMessage& m = (*list)[i];
            if (m.role != ChatMessage::Role::Assistant || m.id != messageId || m.text != text)
                continue;
            m.figures = figures;
            library_->save(index);
            if (list != &chat->messages || !isShown(chatId))
                return;
            if (i + 1 == list->size() && !library_->isBusy(chatId)) {
                transcript_->finishLast(m);
            } else { // an earlier answer (or the chat asks again already): all laid out again
                const int scroll = transcript_->verticalScrollBar()->value();
                transcript_->showMessages(chat->messages, isGenerating());
                transcript_->verticalScrollBar()->setValue(scroll);
            }
            return;
        }
}

void ChatPane::setWork(const QString& chatId, ChatLibrary::Work work) {
    const ChatLibrary::Work before = library_->work(chatId);
    if (work == ChatLibrary::Work::Answering)
        streamSaved_.restart();
    library_->setWork(chatId, work); // updateButtons() when it is the chat shown
    ChatSession* chat = library_->find(chatId);
    if (!chat || work != ChatLibrary::Work::None)
        return;
    const bool streamed =
        before == ChatLibrary::Work::Answering || before == ChatLibrary::Work::Summarizing;
    if (streamed && isShown(chatId) && !chat->messages.isEmpty())
        transcript_->finishLast(chat->messages.last());
    QList<QPair<QString, QString>> later;
    for (const auto& notice : std::exchange(pendingNotices_, {})) {
        if (notice.first == chatId)
            appendMessageTo(chatId, ChatMessage::Role::Notice, notice.second);
        else
            later.append(notice);
    }
    pendingNotices_ += later;
}

void ChatPane::setQuestionContextNote(const QString& chatId, const QString& note,
                                      int leftOutTurns) {
    ChatSession* chat = library_->find(chatId);
    if (!chat || !folio::ui::setQuestionContextNote(*chat, note, leftOutTurns))
        return;
    refreshChat(chatId);
}

void ChatPane::refreshChat(const QString& chatId) {
    const int index = library_->indexOf(chatId);
    if (index < 0)
        return;
    if (isShown(chatId))
        transcript_->showMessages(library_->current().messages, isGenerating());
    library_->save(index);
}

} // namespace folio::ui
