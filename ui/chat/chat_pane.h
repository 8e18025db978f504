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
    // Enables sending when a model is ready; `reason` is shown when it is not.
    void setModelReady(bool ready, const QString& reason);
    void setContextUsage(qint64 used, qint64 limit);

Q_SIGNALS:
    void sendRequested(const QString& text);
    void stopRequested();

private:
    void render();
    void send();

    QTextBrowser* transcript_ = nullptr;
    QPlainTextEdit* input_ = nullptr;
    QPushButton* sendButton_ = nullptr;
    QPushButton* stopButton_ = nullptr;
    QLabel* modelNotice_ = nullptr;
    QProgressBar* contextGauge_ = nullptr;
    QList<ChatMessage> messages_;
    bool modelReady_ = false;
};

} // namespace folio::ui
