#include "chat/chat_pane.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QShortcut>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTimer>
#include <QVBoxLayout>

namespace folio::ui {

QString roleName(ChatMessage::Role role) {
    switch (role) {
    case ChatMessage::Role::System:
        return QStringLiteral("System");
    case ChatMessage::Role::User:
        return QStringLiteral("You");
    case ChatMessage::Role::Assistant:
        return QStringLiteral("Folio");
    case ChatMessage::Role::Notice:
        return QStringLiteral("Notice");
    }
    return {};
}

ChatPane::ChatPane(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);

    modelNotice_ = new QLabel(this);
    modelNotice_->setObjectName(QStringLiteral("chatModelNotice"));
    modelNotice_->setWordWrap(true);
    modelNotice_->setStyleSheet(QStringLiteral("QLabel { background: #fff4d6; border: 1px solid "
                                               "#e6c877; border-radius: 4px; padding: 6px; }"));
    layout->addWidget(modelNotice_);

    transcript_ = new QTextBrowser(this);
    transcript_->setObjectName(QStringLiteral("chatTranscript"));
    transcript_->setOpenLinks(false);
    layout->addWidget(transcript_, 1);

    contextGauge_ = new QProgressBar(this);
    contextGauge_->setObjectName(QStringLiteral("contextGauge"));
    contextGauge_->setFormat(tr("context: no model"));
    contextGauge_->setValue(0);
    layout->addWidget(contextGauge_);

    auto* inputRow = new QHBoxLayout;
    input_ = new QPlainTextEdit(this);
    input_->setObjectName(QStringLiteral("chatInput"));
    input_->setPlaceholderText(tr("Ask about the open documents… (Ctrl+Enter to send)"));
    input_->setMaximumHeight(96);
    inputRow->addWidget(input_, 1);
    auto* buttons = new QVBoxLayout;
    sendButton_ = new QPushButton(tr("Send"), this);
    sendButton_->setObjectName(QStringLiteral("sendButton"));
    stopButton_ = new QPushButton(tr("Stop"), this);
    stopButton_->setObjectName(QStringLiteral("stopButton"));
    stopButton_->setEnabled(false);
    buttons->addWidget(sendButton_);
    buttons->addWidget(stopButton_);
    inputRow->addLayout(buttons);
    layout->addLayout(inputRow);

    connect(sendButton_, &QPushButton::clicked, this, &ChatPane::send);
    connect(stopButton_, &QPushButton::clicked, this, &ChatPane::stopRequested);
    auto* sendShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), input_);
    connect(sendShortcut, &QShortcut::activated, this, &ChatPane::send);
    auto* stopShortcut = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(stopShortcut, &QShortcut::activated, this, &ChatPane::stopRequested);

    setModelReady(false, tr("No model loaded. Open a GGUF model (File → Open model…) to ask "
                            "questions; documents can be opened and read meanwhile."));
    render();
}

void ChatPane::appendMessage(ChatMessage::Role role, const QString& text) {
    messages_.append({role, text, QDateTime::currentDateTime()});
    footers_.append(QString());
    render();
}

void ChatPane::appendToLast(const QString& text) {
    if (messages_.isEmpty())
        return;
    messages_.last().text += text;
    if (renderScheduled_)
        return; // a full render is coming anyway
    // Streaming: append at the end of the document instead of re-laying out the transcript,
    // so each token costs the GUI thread almost nothing however long the chat is.
    QTextCursor cursor(transcript_->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(text);
    transcript_->verticalScrollBar()->setValue(transcript_->verticalScrollBar()->maximum());
}

void ChatPane::setLastFooter(const QString& footer) {
    if (footers_.isEmpty())
        return;
    footers_.last() = footer;
    scheduleRender();
}

void ChatPane::setGenerating(bool generating) {
    generating_ = generating;
    sendButton_->setEnabled(modelReady_ && !generating);
    stopButton_->setEnabled(generating);
}

void ChatPane::setPrefillProgress(qint64 done, qint64 total, double etaSeconds) {
    contextGauge_->setRange(0, 1000);
    contextGauge_->setValue(total > 0 ? static_cast<int>(done * 1000 / total) : 0);
    contextGauge_->setFormat(tr("reading the prompt: %L1 / %L2 tokens · %3 s left")
                                 .arg(done)
                                 .arg(total)
                                 .arg(etaSeconds, 0, 'f', 1));
}

// Streaming tokens arrive quickly: repaint at most every 50 ms.
void ChatPane::scheduleRender() {
    if (renderScheduled_)
        return;
    renderScheduled_ = true;
    QTimer::singleShot(50, this, [this] {
        renderScheduled_ = false;
        render();
    });
}

void ChatPane::setModelReady(bool ready, const QString& reason) {
    modelReady_ = ready;
    sendButton_->setEnabled(ready && !generating_);
    modelNotice_->setVisible(!ready);
    modelNotice_->setText(reason);
}

void ChatPane::setContextUsage(qint64 used, qint64 limit) {
    if (limit <= 0) {
        contextGauge_->setFormat(tr("context: no model"));
        contextGauge_->setValue(0);
        return;
    }
    contextGauge_->setRange(0, 1000);
    contextGauge_->setValue(static_cast<int>(qMin<qint64>(1000, used * 1000 / limit)));
    contextGauge_->setFormat(tr("context: %L1 / %L2 tokens").arg(used).arg(limit));
}

void ChatPane::submitText(const QString& text) {
    input_->setPlainText(text);
    send();
}

void ChatPane::send() {
    const QString text = input_->toPlainText().trimmed();
    if (!modelReady_ || generating_ || text.isEmpty())
        return;
    appendMessage(ChatMessage::Role::User, text);
    input_->clear();
    Q_EMIT sendRequested(text);
}

void ChatPane::render() {
    QString html;
    if (messages_.isEmpty()) {
        html = tr("<div style='color:#667; margin:24px'><h3>Ask about your documents</h3>"
                  "<p>Open a long report and chart screenshots on the left. Folio puts whole "
                  "documents in the model's context, with page markers so answers can cite "
                  "pages like [p. 12].</p></div>");
    }
    for (qsizetype i = 0; i < messages_.size(); ++i) {
        const ChatMessage& m = messages_[i];
        const QString color = m.role == ChatMessage::Role::User        ? QStringLiteral("#1f4e8c")
                              : m.role == ChatMessage::Role::Assistant ? QStringLiteral("#1b7a3d")
                                                                       : QStringLiteral("#8a6d00");
        html += QStringLiteral(
                    "<p><b style='color:%1'>%2</b> <span style='color:#999'>%3</span><br>%4</p>")
                    .arg(color, roleName(m.role), m.time.toString(QStringLiteral("HH:mm")),
                         m.text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
        if (i < footers_.size() && !footers_[i].isEmpty())
            html += QStringLiteral("<p style='color:#888; font-size:small'>%1</p>")
                        .arg(footers_[i].toHtmlEscaped());
    }
    transcript_->setHtml(html);
    transcript_->verticalScrollBar()->setValue(transcript_->verticalScrollBar()->maximum());
}

} // namespace folio::ui
