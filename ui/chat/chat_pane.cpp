#include "chat/chat_pane.h"

#include "chat/attachment_chips.h"
#include "chat/chat_settings_dialog.h"
#include "chat/context_gauge.h"
#include "chat/data_sources_bar.h"
#include "chat/question_images_bar.h"
#include "chat/send_keys.h"
#include "chat/transcript_view.h"
#include "core/chat/chat_edits.h"
#include "core/chat/citations.h"
#include "core/chat/message_versions.h"
#include "notifications/notification_area.h"
#include "style/palette_colors.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QVBoxLayout>

#include <utility>

namespace folio::ui {

ChatPane::ChatPane(QWidget* parent) : QWidget(parent) {
    library_ = new ChatLibrary(this);
    connect(library_, &ChatLibrary::storageFailed, this, &ChatPane::storageFailed);
    auto* outer = new QHBoxLayout(this);
    outer->setContentsMargins(6, 6, 6, 6);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    outer->addWidget(splitter);

    auto* side = new QWidget(splitter);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    newButton_ = new QPushButton(tr("New chat"), side);
    newButton_->setObjectName(QStringLiteral("newChatButton"));
    sideLayout->addWidget(newButton_);
    list_ = new QListWidget(side);
    list_->setObjectName(QStringLiteral("chatList"));
    list_->setWordWrap(true);
    list_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(list_, &QListWidget::customContextMenuRequested, this, &ChatPane::showListMenu);
    sideLayout->addWidget(list_, 1);
    settingsButton_ = new QPushButton(tr("Chat settings…"), side);
    settingsButton_->setObjectName(QStringLiteral("chatSettingsButton"));
    sideLayout->addWidget(settingsButton_);

    auto* main = new QWidget(splitter);
    auto* layout = new QVBoxLayout(main);
    layout->setContentsMargins(0, 0, 0, 0);
    modelNotice_ = new QLabel(main);
    modelNotice_->setObjectName(QStringLiteral("chatModelNotice"));
    modelNotice_->setWordWrap(true);
    modelNotice_->setTextFormat(Qt::RichText);
    connect(modelNotice_, &QLabel::linkActivated, this, &ChatPane::noticeLinkActivated);
    layout->addWidget(modelNotice_);
    problems_ = new QLabel(main);
    problems_->setObjectName(QStringLiteral("documentProblems"));
    problems_->setWordWrap(true);
    problems_->setTextFormat(Qt::RichText);
    problems_->hide();
    connect(problems_, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link.startsWith(QLatin1String("folio:locate/")))
            Q_EMIT locateRequested(link.section(QLatin1Char('/'), 1).toInt());
    });
    layout->addWidget(problems_);
    notifications_ = new NotificationArea(main);
    notifications_->setObjectName(QStringLiteral("notificationArea"));
    layout->addWidget(notifications_);

    transcript_ = new TranscriptView(main);
    transcript_->setObjectName(QStringLiteral("chatTranscript"));
    transcript_->setVersionLookup(
        [this](int index) { return versionOf(library_->current(), index); });
    connect(transcript_, &TranscriptView::versionRequested, this, &ChatPane::showVersion);
    layout->addWidget(transcript_, 1);
    connect(transcript_, &TranscriptView::citationActivated, this, &ChatPane::citationActivated);
    connect(transcript_, &TranscriptView::actionActivated, this,
            [this](TranscriptView::Action action, int index) {
                switch (action) {
                case TranscriptView::Action::Copy:
                    copyMessage(index);
                    break;
                case TranscriptView::Action::Edit:
                    editAndResend(index);
                    break;
                case TranscriptView::Action::Regenerate:
                    regenerate();
                    break;
                }
            });

    chips_ = new AttachmentChips(main);
    chips_->setObjectName(QStringLiteral("attachmentChips"));
    connect(chips_, &AttachmentChips::removeRequested, this, &ChatPane::documentRemoveRequested);
    layout->addWidget(chips_);
    imagesBar_ = new QuestionImagesBar(main);
    imagesBar_->setObjectName(QStringLiteral("questionImages"));
    layout->addWidget(imagesBar_);

    dataBar_ = new DataSourcesBar(main);
    dataBar_->setObjectName(QStringLiteral("dataSourcesBar"));
    connect(dataBar_, &DataSourcesBar::sourcesChanged, this, &ChatPane::setDataSources);
    layout->addWidget(dataBar_);

    contextGauge_ = new ContextGauge(main);
    contextGauge_->setObjectName(QStringLiteral("contextGauge"));
    layout->addWidget(contextGauge_);

    editBar_ = new QWidget(main);
    editBar_->setObjectName(QStringLiteral("editBar"));
    auto* editLayout = new QHBoxLayout(editBar_);
    editLayout->setContentsMargins(0, 0, 0, 0);
    auto* editLabel = new QLabel(tr("Editing a question: Send asks it as a new version; the "
                                    "earlier one and its answers are kept (‹ › switches)."),
                                 editBar_);
    editLabel->setWordWrap(true);
    editLayout->addWidget(editLabel, 1);
    auto* cancelEdit = new QPushButton(tr("Cancel edit"), editBar_);
    cancelEdit->setObjectName(QStringLiteral("cancelEditButton"));
    connect(cancelEdit, &QPushButton::clicked, this, &ChatPane::cancelEdit);
    editLayout->addWidget(cancelEdit);
    editBar_->hide();
    layout->addWidget(editBar_);

    auto* inputRow = new QHBoxLayout;
    input_ = new QPlainTextEdit(main);
    input_->setObjectName(QStringLiteral("chatInput"));
    input_->setMaximumHeight(96);
    inputRow->addWidget(input_, 1);
    auto* buttons = new QVBoxLayout;
    sendButton_ = new QPushButton(tr("Send"), main);
    sendButton_->setObjectName(QStringLiteral("sendButton"));
    stopButton_ = new QPushButton(tr("Stop"), main);
    stopButton_->setObjectName(QStringLiteral("stopButton"));
    stopButton_->setEnabled(false);
    buttons->addWidget(sendButton_);
    buttons->addWidget(stopButton_);
    inputRow->addLayout(buttons);
    layout->addLayout(inputRow);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({170, 600});

    connect(newButton_, &QPushButton::clicked, this, &ChatPane::newChat);
    connect(settingsButton_, &QPushButton::clicked, this, &ChatPane::editSettings);
    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row != library_->currentIndex())
            selectChat(row);
    });
    connect(sendButton_, &QPushButton::clicked, this, &ChatPane::send);
    connect(stopButton_, &QPushButton::clicked, this, [this] {
        if (isWaiting())
            stopWaiting();
        else
            Q_EMIT stopRequested();
    });
    // Enter / Shift+Enter / Ctrl+Enter (chat/send_keys.h; the choice is in Settings).
    connect(new SendKeys(input_), &SendKeys::sendRequested, this, &ChatPane::send);
    auto* stopShortcut = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    stopShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(stopShortcut, &QShortcut::activated, this, [this] {
        if (isWaiting())
            stopWaiting();
        else if (generating_)
            Q_EMIT stopRequested();
    });

    // Banners and chips in the palette's colours, again when the system theme changes.
    style::followPalette(this, [this] {
        modelNotice_->setStyleSheet(style::labelStyle(palette(), style::Tone::Warning));
        problems_->setStyleSheet(style::labelStyle(palette(), style::Tone::Negative));
    });

    setModelReady(false, tr("No model loaded. Open a GGUF model (File → Open model…) to ask "
                            "questions; documents can be opened and read meanwhile."));
    showCurrent();
}

ChatPane::~ChatPane() = default;

QStringList ChatPane::openStore(const QString& dir) {
    const QStringList errors = library_->open(dir);
    showCurrent();
    return errors;
}

void ChatPane::refreshList() {
    const QSignalBlocker block(list_);
    list_->clear();
    for (const ChatSession& c : library_->chats()) {
        auto* item =
            new QListWidgetItem(c.displayTitle() + QLatin1Char('\n') +
                                    tr("%1 · %2 messages")
                                        .arg(c.updated.toString(QStringLiteral("yyyy-MM-dd HH:mm")))
                                        .arg(c.messages.size()),
                                list_);
        item->setToolTip(c.systemPrompt);
    }
    list_->setCurrentRow(library_->currentIndex());
}

void ChatPane::showCurrent() {
    refreshList();
    updateCitationDocuments();
    dataBar_->setSources(library_->current().dataSources, library_->current().toolsEnabled);
    transcript_->showMessages(library_->current().messages, generating_);
    setContextLimit(contextGauge_->limit());
    if (shownChatId_ != library_->current().id) {
        shownChatId_ = library_->current().id;
        if (isEditing())
            cancelEdit();
        Q_EMIT currentChatChanged();
    }
}

void ChatPane::newChat() {
    if (generating_ || isWaiting())
        return;
    library_->newChat();
    showCurrent();
}

void ChatPane::selectChat(int index) {
    if (generating_ || isWaiting() || !library_->isValid(index))
        return;
    if (index != library_->currentIndex())
        transcript_->collapseToolCalls();
    library_->select(index);
    showCurrent();
}

void ChatPane::deleteChat(int index) {
    if (generating_ || isWaiting() || !library_->isValid(index))
        return;
    if (undoNotification_)
        notifications_->dismiss(undoNotification_);
    const QString title = library_->remove(index);
    undoNotification_ = notifications_->post(
        NotificationArea::Kind::Info, tr("Deleted “%1”.").arg(title), tr("Undo"),
        [this] { undoDelete(); }, kUndoDeleteMs);
    showCurrent();
}

bool ChatPane::undoDelete() {
    notifications_->dismiss(std::exchange(undoNotification_, 0));
    // While a question is answered (or waits) its chat stays the current one: the chat comes
    // back into the list beside it. Otherwise it is shown.
    const bool busy = generating_ || isWaiting();
    if (!library_->restoreDeleted(busy))
        return false;
    if (busy)
        refreshList();
    else
        showCurrent();
    return true;
}

void ChatPane::renameChat(int index, const QString& title) {
    library_->rename(index, title);
    refreshList();
}

void ChatPane::showListMenu(const QPoint& pos) {
    const int row = list_->indexAt(pos).row();
    if (row < 0 || generating_)
        return;
    QMenu menu(this);
    menu.addAction(tr("Rename…"), this, [this, row] {
        bool ok = false;
        const QString title =
            QInputDialog::getText(this, tr("Rename chat"), tr("Title"), QLineEdit::Normal,
                                  library_->chats().at(row).displayTitle(), &ok);
        if (ok)
            renameChat(row, title);
    });
    menu.addAction(tr("Delete"), this, [this, row] { deleteChat(row); });
    menu.exec(list_->viewport()->mapToGlobal(pos));
}

void ChatPane::setChatSettings(const QString& systemPrompt, const GenerationSettings& settings) {
    library_->setSettings(systemPrompt, settings);
    refreshList();
}

void ChatPane::editSettings() {
    ChatSettingsDialog dialog(currentChat().systemPrompt, currentChat().settings, this);
    if (dialog.exec() == QDialog::Accepted)
        setChatSettings(dialog.systemPrompt(), dialog.settings());
}

void ChatPane::appendMessage(ChatMessage::Role role, const QString& text) {
    if (generating_ && role == ChatMessage::Role::Notice) {
        // The answer being streamed stays the last message; the notice follows it.
        pendingNotices_.append(text);
        return;
    }
    ChatMessage m;
    m.role = role;
    m.text = text;
    m.time = QDateTime::currentDateTime();
    if (role == ChatMessage::Role::User) {
        m.attachments = chips_->names();
        m.images = imagesBar_->take(); // only the images attached to this question go with it
    }
    folio::ui::appendMessage(library_->current(), std::move(m));
    transcript_->appendLast(library_->current().messages,
                            generating_ || role == ChatMessage::Role::Assistant);
    if (role != ChatMessage::Role::Assistant) {
        library_->save();
        refreshList();
    }
}

void ChatPane::appendToLast(const QString& text) {
    auto& messages = library_->current().messages;
    if (messages.isEmpty())
        return;
    messages.last().text += text;
    transcript_->updateLast(messages.last());
    Q_EMIT streamed(text);
    // What streamed so far is on disk within a second: a crash loses at most that (issue #48).
    if (generating_ && streamSaved_.elapsed() >= kStreamSaveMs) {
        streamSaved_.restart();
        library_->saveUnfinished(tr("Folio stopped before this answer was finished."));
    }
}

void ChatPane::setLastStats(const MessageStats& stats) {
    auto& messages = library_->current().messages;
    if (messages.isEmpty())
        return;
    messages.last().stats = stats;
    library_->save();
    refreshList();
    if (!generating_)
        transcript_->finishLast(messages.last());
}

void ChatPane::setDataSources(const QStringList& paths, bool toolsEnabled) {
    library_->setDataSources(paths, toolsEnabled);
    dataBar_->setSources(paths, toolsEnabled);
}

void ChatPane::setToolCall(int index, const ToolCallRecord& call) {
    auto& messages = library_->current().messages;
    if (messages.isEmpty() || index < 0)
        return;
    auto& calls = messages.last().toolCalls;
    while (calls.size() <= index)
        calls.append(ToolCallRecord());
    calls[index] = call;
    transcript_->updateLast(messages.last());
}

void ChatPane::resetLastText() {
    auto& messages = library_->current().messages;
    if (messages.isEmpty())
        return;
    messages.last().text.clear();
    transcript_->updateLast(messages.last());
}

void ChatPane::setLastText(const QString& text) {
    auto& messages = library_->current().messages;
    if (messages.isEmpty() || messages.last().text == text)
        return;
    messages.last().text = text;
    transcript_->updateLast(messages.last());
}

void ChatPane::setLastInterrupted(const QString& reason) {
    auto& messages = library_->current().messages;
    if (messages.isEmpty())
        return;
    messages.last().interrupted = reason;
    transcript_->updateLast(messages.last());
}

void ChatPane::setGenerating(bool generating) {
    generating_ = generating;
    streamSaved_.restart();
    sendButton_->setEnabled(modelReady_ && !generating);
    stopButton_->setEnabled(generating);
    list_->setEnabled(!generating);
    newButton_->setEnabled(!generating);
    if (!generating && !library_->current().messages.isEmpty())
        transcript_->finishLast(library_->current().messages.last());
    if (!generating) {
        const QStringList notices = std::exchange(pendingNotices_, {});
        for (const QString& notice : notices)
            appendMessage(ChatMessage::Role::Notice, notice);
    }
}

void ChatPane::setPreparingPrompt() {
    contextGauge_->showPreparing();
}

void ChatPane::setQuestionContextNote(const QString& note, int leftOutTurns) {
    if (!folio::ui::setQuestionContextNote(library_->current(), note, leftOutTurns))
        return;
    transcript_->showMessages(library_->current().messages, generating_);
    library_->save();
}

void ChatPane::setPrefillProgress(qint64 done, qint64 total, double etaSeconds) {
    contextGauge_->showPrefillProgress(done, total, etaSeconds);
}

void ChatPane::setImageProgress(int done, int total) {
    contextGauge_->showImageProgress(done, total);
}

void ChatPane::setModelReady(bool ready, const QString& reason) {
    modelReady_ = ready;
    sendButton_->setEnabled(ready && !generating_);
    modelNotice_->setVisible(!ready);
    modelNotice_->setText(reason);
}

void ChatPane::setContextLimit(qint64 limit) {
    // The gauge shows what the chat's last answer used.
    qint64 used = 0;
    const auto& messages = library_->current().messages;
    for (auto it = messages.crbegin(); it != messages.crend() && used == 0; ++it)
        if (it->role == ChatMessage::Role::Assistant)
            used = it->stats.promptTokens + it->stats.generatedTokens;
    contextGauge_->showUsage(used, limit);
}

void ChatPane::setContextUsage(qint64 used, qint64 limit) {
    contextGauge_->showUsage(used, limit);
}

void ChatPane::setAttachments(const QStringList& names, const QList<int>& rows) {
    chips_->setAttachments(names, rows);
}

void ChatPane::setDocuments(const QList<ChatDocument>& documents) {
    if (library_->setDocuments(documents))
        updateCitationDocuments();
}

void ChatPane::updateCitationDocuments() {
    // Citations count the chat's PDFs in order, as the prompt labels them.
    transcript_->setCitationTargets(citationTargets(library_->current().documents));
}

void ChatPane::setDocumentProblems(const QList<QPair<int, QString>>& problems) {
    QString html;
    for (const auto& p : problems)
        html += QStringLiteral("<div>%1 <a href='folio:locate/%2'>%3</a></div>")
                    .arg(p.second.toHtmlEscaped())
                    .arg(p.first)
                    .arg(tr("Locate…"));
    problems_->setText(html);
    problems_->setVisible(!problems.isEmpty());
}

QString ChatPane::documentProblemsText() const {
    return problems_->isVisible() ? problems_->text() : QString();
}

void ChatPane::releaseWaitingQuestion() {
    if (!isWaiting())
        return;
    if (loadingDocuments_ && !loadingDocuments_().isEmpty())
        return;
    const QString question = std::exchange(waitingQuestion_, QString());
    // One whole sentence per state: translations cannot be edited in fragments.
    if (moveWaitingQuestionLast(library_->current(),
                                tr("Waited for %1 to finish loading.").arg(waitingFor_),
                                chips_->names())) {
        transcript_->showMessages(library_->current().messages, false);
        library_->save();
    }
    stopButton_->setEnabled(false);
    setGenerating(false);
    Q_EMIT sendRequested(question);
}

void ChatPane::stopWaiting() {
    waitingQuestion_.clear();
    setGenerating(false);
    appendMessage(ChatMessage::Role::Notice,
                  tr("Stopped waiting for the documents: the question was not sent."));
}

void ChatPane::attachImage(const QuestionImage& image) {
    imagesBar_->add(image);
}

void ChatPane::submitText(const QString& text) {
    input_->setPlainText(text);
    send();
}

void ChatPane::send() {
    const QString text = input_->toPlainText().trimmed();
    if (!modelReady_ || generating_ || text.isEmpty())
        return;
    if (isEditing()) {
        // The edited question and what followed it become another branch; this is its sibling.
        ChatSession& chat = library_->current();
        for (qsizetype i = 0; i < chat.messages.size(); ++i) {
            if (chat.messages[i].id == editingId_) {
                branchAt(chat, int(i));
                break;
            }
        }
        cancelEdit();
        transcript_->showMessages(chat.messages, false);
    }
    appendMessage(ChatMessage::Role::User, text);
    input_->clear();
    const QStringList loading = loadingDocuments_ ? loadingDocuments_() : QStringList();
    if (!loading.isEmpty()) {
        // Sent once they are read: a question without its documents would be answered wrongly.
        waitingFor_ = loading.join(QStringLiteral(", "));
        appendMessage(ChatMessage::Role::Notice,
                      tr("Waiting for %1 to finish loading…").arg(waitingFor_));
        waitingQuestion_ = text;
        sendButton_->setEnabled(false);
        stopButton_->setEnabled(true);
        list_->setEnabled(false);
        newButton_->setEnabled(false);
        return;
    }
    Q_EMIT sendRequested(text);
}

void ChatPane::copyMessage(int index) {
    const auto& messages = library_->current().messages;
    if (index >= 0 && index < messages.size())
        QGuiApplication::clipboard()->setText(messages[index].text);
}

void ChatPane::editAndResend(int index) {
    const auto& messages = library_->current().messages;
    if (generating_ || isWaiting() || index < 0 || index >= messages.size() ||
        messages[index].role != ChatMessage::Role::User)
        return;
    // Nothing changes until the edit is sent: then it becomes a new version of the question.
    editingId_ = messages[index].id;
    input_->setPlainText(messages[index].text);
    for (const QuestionImage& image : messages[index].images) // the edit keeps its images
        imagesBar_->add(image);
    editBar_->show();
    input_->setFocus();
}

void ChatPane::cancelEdit() {
    editingId_ = 0;
    editBar_->hide();
}

void ChatPane::regenerate() {
    if (generating_ || isWaiting() || !modelReady_ || !prepareRegenerate(library_->current()))
        return;
    library_->save();
    showCurrent();
    Q_EMIT sendRequested(library_->current().messages.last().text);
}

void ChatPane::showVersion(int index, int version) {
    if (generating_ || isWaiting())
        return;
    if (isEditing())
        cancelEdit();
    if (!switchVersion(library_->current(), index, version))
        return;
    library_->save();
    showCurrent();
}

} // namespace folio::ui
