#pragma once
// The Chat pane: transcript, input, send/stop, and the context gauge. Generation is wired to
// the engine worker by the engine-service issue; until a model is loaded, sending is disabled
// and the pane says why.

#include "chat/chat_message.h"

#include <QList>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTextBrowser;

namespace folio::ui {

class ChatPane : public QWidget {
    Q_OBJECT
public:
    explicit ChatPane(QWidget* parent = nullptr);

    const QList<ChatMessage>& messages() const { return messages_; }
    void appendMessage(ChatMessage::Role role, const QString& text);
    // Sends `text` as if typed and sent by the user.
    void submitText(const QString& text);
    // Streaming: text appended to the last (assistant) message, and a footer under it.
    void appendToLast(const QString& text);
    void setLastFooter(const QString& footer);
    // While generating: Send disabled, Stop enabled.
    void setGenerating(bool generating);
    void setPrefillProgress(qint64 done, qint64 total, double etaSeconds);
    // Enables sending when a model is ready; `reason` is shown when it is not.
    void setModelReady(bool ready, const QString& reason);
    void setContextUsage(qint64 used, qint64 limit);

Q_SIGNALS:
    void sendRequested(const QString& text);
    void stopRequested();

private:
    void render();
    void scheduleRender();
    void send();

    QTextBrowser* transcript_ = nullptr;
    QPlainTextEdit* input_ = nullptr;
    QPushButton* sendButton_ = nullptr;
    QPushButton* stopButton_ = nullptr;
    QLabel* modelNotice_ = nullptr;
    QProgressBar* contextGauge_ = nullptr;
    QList<ChatMessage> messages_;
    bool modelReady_ = false;
    bool generating_ = false;
    bool renderScheduled_ = false;
    QList<QString> footers_; // per message, may be empty
};

} // namespace folio::ui
