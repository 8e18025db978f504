#pragma once
// The Chat pane: a view of the workbench's chats (ChatLibrary): their list, the transcript of
// the current one, the documents attached to the next question (chips), the context gauge with
// prefill progress, and the input with Send / Stop (Esc). Answers come through a ChatController,
// which takes sendRequested / stopRequested.

#include "core/chat/chat_library.h"

#include <QElapsedTimer>
#include <QList>
#include <QWidget>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QHBoxLayout;

namespace folio::ui {

class AttachmentChips;
class ContextGauge;
class DataSourcesBar;
class QuestionImagesBar;
class NotificationArea;
class TranscriptView;
struct QuestionImage;

class ChatPane : public QWidget {
    Q_OBJECT
public:
    // A view of `library` (the workbench's), or, without, of a library of its own.
    explicit ChatPane(QWidget* parent = nullptr);
    explicit ChatPane(ChatLibrary* library, QWidget* parent = nullptr);
    ~ChatPane() override;

    // Reads every chat from `dir` (created on first save) and shows the most recent one.
    // Returns one line per unreadable file.
    QStringList openStore(const QString& dir);

    ChatLibrary* library() const { return library_; }
    const QList<ChatSession>& chats() const { return library_->chats(); }
    const ChatSession& currentChat() const { return library_->current(); }
    int currentIndex() const { return library_->currentIndex(); }
    const QList<ChatMessage>& messages() const { return library_->current().messages; }

    // Writes the current chat now (e.g. when the window closes).
    void saveCurrent() { library_->save(); }
    // Blocks until queued saves are on disk (tests, shutdown).
    void waitForSaves() { library_->waitForSaves(); }
    void newChat();
    void selectChat(int index);
    // Removes a chat (the list keeps at least one, empty, chat); its file goes to the store's
    // trash. The notification area offers "Undo" for kUndoDeleteMs.
    void deleteChat(int index);
    // Brings the chat deleted last back (its file and its place in the list) and shows it.
    // False when there is none to bring back.
    bool undoDelete();
    static constexpr int kUndoDeleteMs = 15000;
    // While an answer streams, what arrived is saved this often (marked as cut off in the file).
    static constexpr int kStreamSaveMs = 1000;
    void renameChat(int index, const QString& title);
    // Replaces the current chat's system prompt and sampling settings (and saves).
    void setChatSettings(const QString& systemPrompt, const GenerationSettings& settings);

    // Appends to the current chat (a question takes the chips' documents and the images).
    void appendMessage(ChatMessage::Role role, const QString& text);
    // Sends `text` as if typed and sent by the user.
    void submitText(const QString& text);

    // Answers and jobs change their own chat by its id, shown or not (issue #48 §7): the user
    // may be in another chat meanwhile. A chat deleted meanwhile is left alone (these are in
    // chat_pane_answers.cpp).
    void appendMessageTo(const QString& chatId, ChatMessage::Role role, const QString& text);
    // Streaming: text appended to the chat's last (assistant) message; its stats once done.
    void appendToLast(const QString& chatId, const QString& text);
    void setLastStats(const QString& chatId, const MessageStats& stats);
    // What chat `chatId` is busy with: while it works, its Send is off and Stop stops it; the
    // chat list, New chat and every other chat stay usable.
    void setWork(const QString& chatId, ChatLibrary::Work work);
    // The current chat is being answered or summarized / its question waits its turn.
    bool isGenerating() const;
    bool isWaiting() const;
    void setPrefillProgress(const QString& chatId, qint64 done, qint64 total, double etaSeconds);
    // "Encoding page images 2/5…" in the same gauge, before the prompt is read.
    void setImageProgress(const QString& chatId, int done, int total);
    // The answer is being written: `tokens` so far (the gauge leaves "reading the prompt").
    void setAnswerProgress(const QString& chatId, qint64 tokens);
    // "Preparing the prompt…" in the context gauge while the question's prompt is planned.
    void setPreparingPrompt(const QString& chatId);
    // Puts `note` (ChatMessage::contextNote) and the number of earlier turns its prompt left
    // out on the question being answered: the last user message of chat `chatId`.
    void setQuestionContextNote(const QString& chatId, const QString& note, int leftOutTurns = 0);
    // Chat `chatId` was changed in place (ChatLibrary::find): shown again and saved.
    void refreshChat(const QString& chatId);
    // Enables sending when a model is ready; `reason` (rich text) is shown when it is not.
    void setModelReady(bool ready, const QString& reason);
    void setContextUsage(const QString& chatId, qint64 used, qint64 limit);
    // A model with context `limit` is ready: the gauge shows the current chat's last answer
    // against it (a chat without answers: 0).
    void setContextLimit(qint64 limit);
    // The documents that go with the next question, shown as chips above the input, each with
    // a remove button (documentRemoveRequested with its entry of `rows`: its place in the chat).
    void setAttachments(const QStringList& names, const QList<int>& rows = {});
    // The current chat's documents (saved with it when they changed; citations link to them).
    void setDocuments(const QList<ChatDocument>& documents);
    // Documents of the chat that are missing or changed: one line each with a "Locate…" link
    // (locateRequested), in a banner above the transcript; empty hides it.
    void setDocumentProblems(const QList<QPair<int, QString>>& problems);
    QString documentProblemsText() const;
    TranscriptView* transcript() const { return transcript_; }
    // The images attached to the next question (chips above the input); the question sent
    // next takes them (ChatMessage::images).
    QuestionImagesBar* questionImages() const { return imagesBar_; }
    void attachImage(const QuestionImage& image);
    DataSourcesBar* dataSourcesBar() const { return dataBar_; }

    // The current chat's data sources and Tools switch (saved with the chat).
    void setDataSources(const QStringList& paths, bool toolsEnabled);
    // Tool calls of the answer being streamed (the chat's last message), as they happen.
    void setToolCall(const QString& chatId, int index, const ToolCallRecord& call);
    // The text streamed so far was a tool call: the answer starts afresh.
    void resetLastText(const QString& chatId);
    // Replaces the chat's last answer's text (the final answer of a tool-using turn).
    void setLastText(const QString& chatId, const QString& text);
    // The chat's last answer was cut off by an error: its text stays, marked with `reason`.
    void setLastInterrupted(const QString& chatId, const QString& reason);
    // Answer `messageId` of chat `chatId` reads `text` now instead of `was` (a citation fixed);
    // false when the answer is gone or changed meanwhile. Saved and shown.
    bool replaceAnswerText(const QString& chatId, qint64 messageId, const QString& was,
                           const QString& text);
    // The figures checked in answer `messageId` of chat `chatId` (kept only while its text is
    // still `text`: a regenerated or edited answer is not given another's figures).
    void setAnswerFigures(const QString& chatId, qint64 messageId, const QString& text,
                          const QList<CheckedFigure>& figures);

    // Per-message actions (also reachable through the transcript's links).
    void copyMessage(int index);
    // The question returns to the input; sending it makes a new version of it (the old one and
    // the answers after it are kept as another branch). cancelEdit() forgets the edit.
    void editAndResend(int index);
    void cancelEdit();
    bool isEditing() const { return editingId_ != 0; }
    // Asks the last question again: the new answer is a new version of the previous one (kept,
    // unless it had nothing in it: a failed or empty answer is dropped).
    void regenerate();
    // Shows version `version` (0-based) of message `index` of the current chat, with the branch
    // under it as last seen (message_versions.h), and saves the choice.
    void showVersion(int index, int version);
    // Messages for the user that belong to no chat (errors, undo).
    NotificationArea* notifications() const { return notifications_; }

Q_SIGNALS:
    // `text` is to be answered: the last message of chat `chatId` (the current one when it
    // was sent), a user message.
    void sendRequested(const QString& text, const QString& chatId);
    // Stop what chat `chatId` is busy with (an answer, a waiting question, a summary).
    void stopRequested(const QString& chatId);
    // Streaming text arrived for the last message.
    void streamed(const QString& text);
    // A citation link: page `page` of the chat's document `document` (its place in the chat).
    void citationActivated(int document, int page);
    // A figure's mark: its page, with the page's figure to highlight there ("": none known).
    void figureActivated(int document, int page, const QString& match);
    // "Cite page K instead" on figure `figure` of answer `messageId` in chat `chatId`.
    void citationFixRequested(const QString& chatId, qint64 messageId, int figure);
    // Another chat is shown (its documents should be shown with it).
    void currentChatChanged();
    void documentRemoveRequested(int row);
    void locateRequested(int row);
    void noticeLinkActivated(const QString& link);
    void storageFailed(const QString& message);

private:
    void send();
    void showCurrent();
    void refreshList();
    void editSettings();
    void showListMenu(const QPoint& pos);
    // True when chat `chatId` is the one shown.
    bool isShown(const QString& chatId) const { return library_->current().id == chatId; }
    void updateButtons();
    void stopCurrent();
    void updateCitationDocuments();

    ChatLibrary* library_ = nullptr;
    // Notices that arrived for a chat while an answer streamed into it: (chat id, text).
    QList<QPair<QString, QString>> pendingNotices_;
    QString shownChatId_;
    QLabel* problems_ = nullptr;
    NotificationArea* notifications_ = nullptr;
    QWidget* editBar_ = nullptr;
    qint64 editingId_ = 0;     // the question being edited (its message id), 0: none
    int undoNotification_ = 0; // "Undo" of the chat deleted last, while it can be undone

    QListWidget* list_ = nullptr;
    QPushButton* newButton_ = nullptr;
    QPushButton* settingsButton_ = nullptr;
    TranscriptView* transcript_ = nullptr;
    DataSourcesBar* dataBar_ = nullptr;
    AttachmentChips* chips_ = nullptr;
    QuestionImagesBar* imagesBar_ = nullptr;
    QPlainTextEdit* input_ = nullptr;
    QPushButton* sendButton_ = nullptr;
    QPushButton* stopButton_ = nullptr;
    QLabel* modelNotice_ = nullptr;
    ContextGauge* contextGauge_ = nullptr;
    bool modelReady_ = false;
    QElapsedTimer streamSaved_;
};

} // namespace folio::ui
