#include "chat/chat_pane.h"

#include "chat/chat_settings_dialog.h"
#include "chat/citations.h"
#include "chat/data_sources_bar.h"
#include "chat/message_versions.h"
#include "chat/question_images_bar.h"
#include "chat/send_keys.h"
#include "chat/transcript_view.h"
#include "notifications/notification_area.h"
#include "pipeline/human_format.h"
#include "style/palette_colors.h"

#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>

namespace folio::ui {

ChatPane::ChatPane(QWidget* parent) : QWidget(parent) {
    chats_.append(ChatSession::create());
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
    transcript_->setVersionLookup([this](int index) { return versionOf(chats_[current_], index); });
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

    chips_ = new QWidget(main);
    chips_->setObjectName(QStringLiteral("attachmentChips"));
    chipsLayout_ = new QHBoxLayout(chips_);
    chipsLayout_->setContentsMargins(0, 0, 0, 0);
    chipsLayout_->addStretch(1);
    chips_->hide();
    layout->addWidget(chips_);
    imagesBar_ = new QuestionImagesBar(main);
    imagesBar_->setObjectName(QStringLiteral("questionImages"));
    layout->addWidget(imagesBar_);

    dataBar_ = new DataSourcesBar(main);
    dataBar_->setObjectName(QStringLiteral("dataSourcesBar"));
    connect(dataBar_, &DataSourcesBar::sourcesChanged, this, &ChatPane::setDataSources);
    layout->addWidget(dataBar_);

    contextGauge_ = new QProgressBar(main);
    contextGauge_->setObjectName(QStringLiteral("contextGauge"));
    contextGauge_->setFormat(tr("context: no model"));
    contextGauge_->setValue(0);
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
        if (row >= 0 && row != current_)
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
        for (QLabel* chip : chips_->findChildren<QLabel*>(QStringLiteral("attachmentChip")))
            chip->setStyleSheet(chipStyle());
    });

    setModelReady(false, tr("No model loaded. Open a GGUF model (File → Open model…) to ask "
                            "questions; documents can be opened and read meanwhile."));
    showCurrent();
}

ChatPane::~ChatPane() = default;

QStringList ChatPane::openStore(const QString& dir) {
    store_ = std::make_unique<ChatStore>(dir);
    store_->emptyTrash(ChatStore::kTrashDays);
    QStringList errors;
    QList<ChatSession> loaded = store_->loadAll(&errors);
    if (!loaded.isEmpty()) {
        chats_ = loaded;
        current_ = 0;
    }
    showCurrent();
    return errors;
}

void ChatPane::save() {
    if (!store_)
        return;
    ChatSession& chat = chats_[current_];
    if (chat.messages.isEmpty() && chat.otherVersions.isEmpty() && chat.dataSources.isEmpty() &&
        chat.documents.isEmpty()) {
        store_->remove(chat.id); // an empty chat is not worth a file (one with documents is)
        return;
    }
    chat.updated = QDateTime::currentDateTime();
    // Serialized here, written (and synced) by the store's writer thread.
    store_->saveAsync(chat, this, [this](const QString& error) {
        if (!error.isEmpty())
            Q_EMIT storageFailed(tr("Cannot save the chat: %1").arg(error));
    });
}

void ChatPane::refreshList() {
    const QSignalBlocker block(list_);
    list_->clear();
    for (const ChatSession& c : chats_) {
        auto* item =
            new QListWidgetItem(c.displayTitle() + QLatin1Char('\n') +
                                    tr("%1 · %2 messages")
                                        .arg(c.updated.toString(QStringLiteral("yyyy-MM-dd HH:mm")))
                                        .arg(c.messages.size()),
                                list_);
        item->setToolTip(c.systemPrompt);
    }
    list_->setCurrentRow(current_);
}

void ChatPane::showCurrent() {
    refreshList();
    updateCitationDocuments();
    dataBar_->setSources(chats_[current_].dataSources, chats_[current_].toolsEnabled);
    transcript_->showMessages(chats_[current_].messages, generating_);
    // The gauge shows what the chat's last answer used.
    qint64 used = 0;
    const auto& messages = chats_[current_].messages;
    for (auto it = messages.crbegin(); it != messages.crend() && used == 0; ++it)
        if (it->role == ChatMessage::Role::Assistant)
            used = it->stats.promptTokens + it->stats.generatedTokens;
    setContextUsage(used, contextLimit_);
    if (shownChatId_ != chats_[current_].id) {
        shownChatId_ = chats_[current_].id;
        if (isEditing())
            cancelEdit();
        Q_EMIT currentChatChanged();
    }
}

void ChatPane::newChat() {
    if (generating_ || isWaiting())
        return;
    // Reuse an empty chat rather than piling them up.
    for (qsizetype i = 0; i < chats_.size(); ++i) {
        if (chats_[i].messages.isEmpty() && chats_[i].documents.isEmpty()) {
            selectChat(int(i));
            return;
        }
    }
    chats_.prepend(ChatSession::create());
    current_ = 0;
    showCurrent();
}

void ChatPane::selectChat(int index) {
    if (generating_ || isWaiting() || index < 0 || index >= chats_.size())
        return;
    if (index != current_)
        transcript_->collapseToolCalls();
    current_ = index;
    showCurrent();
}

void ChatPane::deleteChat(int index) {
    if (generating_ || isWaiting() || index < 0 || index >= chats_.size())
        return;
    // The chat deleted before stays in the trash; only the last one is offered back here.
    if (deleted_)
        notifications_->dismiss(deleted_->notification);
    Deleted d;
    d.chat = chats_[index];
    d.index = index;
    if (store_)
        store_->moveToTrash(d.chat.id);
    chats_.removeAt(index);
    if (chats_.isEmpty())
        chats_.append(ChatSession::create());
    current_ = qBound(0, index < current_ ? current_ - 1 : current_, int(chats_.size()) - 1);
    d.notification = notifications_->post(
        NotificationArea::Kind::Info, tr("Deleted “%1”.").arg(d.chat.displayTitle()), tr("Undo"),
        [this] { undoDelete(); }, kUndoDeleteMs);
    deleted_ = std::move(d);
    showCurrent();
}

bool ChatPane::undoDelete() {
    if (!deleted_)
        return false;
    Deleted d = std::move(*deleted_);
    deleted_.reset();
    notifications_->dismiss(d.notification);
    if (store_)
        store_->restoreFromTrash(d.chat.id);
    // While a question is answered (or waits) its chat stays the current one: the chat comes
    // back into the list beside it. Otherwise it is shown, and the empty chat put in its place
    // when it was the only one goes again.
    const bool busy = generating_ || isWaiting();
    if (!busy && chats_.size() == 1 && chats_[0].messages.isEmpty() &&
        chats_[0].otherVersions.isEmpty() && chats_[0].documents.isEmpty() &&
        chats_[0].dataSources.isEmpty())
        chats_.clear();
    const int index = qBound(0, d.index, int(chats_.size()));
    chats_.insert(index, d.chat);
    if (busy)
        current_ += index <= current_ ? 1 : 0;
    else
        current_ = index;
    const bool worthAFile = !d.chat.messages.isEmpty() || !d.chat.otherVersions.isEmpty() ||
                            !d.chat.documents.isEmpty() || !d.chat.dataSources.isEmpty();
    if (store_ && worthAFile && !QFile::exists(store_->pathFor(d.chat.id))) {
        // It had no file yet, or the trash lost it: written from memory.
        store_->saveAsync(d.chat, this, [this](const QString& error) {
            if (!error.isEmpty())
                Q_EMIT storageFailed(tr("Cannot save the chat: %1").arg(error));
        });
    }
    if (busy)
        refreshList();
    else
        showCurrent();
    return true;
}

void ChatPane::renameChat(int index, const QString& title) {
    if (index < 0 || index >= chats_.size())
        return;
    const int previous = current_;
    current_ = index;
    chats_[index].title = title.trimmed();
    save();
    current_ = previous;
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
                                  chats_[row].displayTitle(), &ok);
        if (ok)
            renameChat(row, title);
    });
    menu.addAction(tr("Delete"), this, [this, row] { deleteChat(row); });
    menu.exec(list_->viewport()->mapToGlobal(pos));
}

void ChatPane::setChatSettings(const QString& systemPrompt, const GenerationSettings& settings) {
    chats_[current_].systemPrompt = systemPrompt;
    chats_[current_].settings = settings;
    save();
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
        m.attachments = attachments_;
        m.images = imagesBar_->take(); // only the images attached to this question go with it
    }
    ChatSession& chat = chats_[current_];
    if (role == ChatMessage::Role::Assistant)
        m.citedDocuments = citableDocuments(chat.documents);
    m.id = nextMessageId(chat);
    m.parentId = chat.messages.isEmpty() ? 0 : chat.messages.last().id;
    chat.messages.append(m);
    transcript_->appendLast(chats_[current_].messages,
                            generating_ || role == ChatMessage::Role::Assistant);
    if (role != ChatMessage::Role::Assistant) {
        save();
        refreshList();
    }
}

void ChatPane::appendToLast(const QString& text) {
    auto& messages = chats_[current_].messages;
    if (messages.isEmpty())
        return;
    messages.last().text += text;
    transcript_->updateLast(messages.last());
    Q_EMIT streamed(text);
}

void ChatPane::setLastStats(const MessageStats& stats) {
    auto& messages = chats_[current_].messages;
    if (messages.isEmpty())
        return;
    messages.last().stats = stats;
    save();
    refreshList();
    if (!generating_)
        transcript_->finishLast(messages.last());
}

void ChatPane::setDataSources(const QStringList& paths, bool toolsEnabled) {
    ChatSession& chat = chats_[current_];
    chat.dataSources = paths;
    chat.toolsEnabled = toolsEnabled;
    dataBar_->setSources(paths, toolsEnabled);
    save();
}

void ChatPane::setToolCall(int index, const ToolCallRecord& call) {
    auto& messages = chats_[current_].messages;
    if (messages.isEmpty() || index < 0)
        return;
    auto& calls = messages.last().toolCalls;
    while (calls.size() <= index)
        calls.append(ToolCallRecord());
    calls[index] = call;
    transcript_->updateLast(messages.last());
}

void ChatPane::resetLastText() {
    auto& messages = chats_[current_].messages;
    if (messages.isEmpty())
        return;
    messages.last().text.clear();
    transcript_->updateLast(messages.last());
}

void ChatPane::setLastText(const QString& text) {
    auto& messages = chats_[current_].messages;
    if (messages.isEmpty() || messages.last().text == text)
        return;
    messages.last().text = text;
    transcript_->updateLast(messages.last());
}

void ChatPane::setLastInterrupted(const QString& reason) {
    auto& messages = chats_[current_].messages;
    if (messages.isEmpty())
        return;
    messages.last().interrupted = reason;
    transcript_->updateLast(messages.last());
}

void ChatPane::setGenerating(bool generating) {
    generating_ = generating;
    sendButton_->setEnabled(modelReady_ && !generating);
    stopButton_->setEnabled(generating);
    list_->setEnabled(!generating);
    newButton_->setEnabled(!generating);
    if (!generating && !chats_[current_].messages.isEmpty())
        transcript_->finishLast(chats_[current_].messages.last());
    if (!generating) {
        const QStringList notices = std::exchange(pendingNotices_, {});
        for (const QString& notice : notices)
            appendMessage(ChatMessage::Role::Notice, notice);
    }
}

void ChatPane::setPreparingPrompt() {
    contextGauge_->setRange(0, 1000);
    contextGauge_->setValue(0);
    contextGauge_->setFormat(tr("Preparing the prompt…"));
}

void ChatPane::setQuestionContextNote(const QString& note, int leftOutTurns) {
    auto& messages = chats_[current_].messages;
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        if (messages[i].role != ChatMessage::Role::User)
            continue;
        if (messages[i].contextNote == note && messages[i].leftOutTurns == leftOutTurns)
            return;
        messages[i].contextNote = note;
        messages[i].leftOutTurns = leftOutTurns;
        transcript_->showMessages(messages, generating_);
        save();
        return;
    }
}

void ChatPane::setPrefillProgress(qint64 done, qint64 total, double etaSeconds) {
    contextGauge_->setRange(0, 1000);
    contextGauge_->setValue(total > 0 ? static_cast<int>(done * 1000 / total) : 0);
    contextGauge_->setFormat(tr("reading the prompt: %L1 / %L2 tokens · %3 left")
                                 .arg(done)
                                 .arg(total)
                                 .arg(humanEta(etaSeconds)));
}

void ChatPane::setImageProgress(int done, int total) {
    contextGauge_->setRange(0, 1000);
    contextGauge_->setValue(total > 0 ? done * 1000 / total : 0);
    contextGauge_->setFormat(tr("Encoding page images %1/%2…").arg(done).arg(total));
}

void ChatPane::setModelReady(bool ready, const QString& reason) {
    modelReady_ = ready;
    sendButton_->setEnabled(ready && !generating_);
    modelNotice_->setVisible(!ready);
    modelNotice_->setText(reason);
}

void ChatPane::setContextUsage(qint64 used, qint64 limit) {
    contextLimit_ = limit;
    if (limit <= 0) {
        contextGauge_->setFormat(tr("context: no model"));
        contextGauge_->setValue(0);
        return;
    }
    contextGauge_->setRange(0, 1000);
    contextGauge_->setValue(static_cast<int>(qMin<qint64>(1000, used * 1000 / limit)));
    contextGauge_->setFormat(tr("context: %L1 / %L2 tokens (%3%)")
                                 .arg(used)
                                 .arg(limit)
                                 .arg(used * 100.0 / limit, 0, 'f', 1));
}

QString ChatPane::chipStyle() const {
    return style::labelStyle(palette(), style::Tone::Accent, 9, QStringLiteral("1px 8px"));
}

void ChatPane::setAttachments(const QStringList& names, const QList<int>& rows) {
    attachments_ = names;
    while (chipsLayout_->count() > 1) {
        QLayoutItem* item = chipsLayout_->takeAt(0);
        delete item->widget();
        delete item;
    }
    for (qsizetype i = 0; i < names.size(); ++i) {
        const QString& name = names[i];
        auto* box = new QWidget(chips_);
        auto* boxLayout = new QHBoxLayout(box);
        boxLayout->setContentsMargins(0, 0, 0, 0);
        boxLayout->setSpacing(0);
        // A long title is shortened in the middle (whole in the tooltip): the chips' row sets
        // the chat's narrowest width.
        auto* chip = new QLabel(box);
        chip->setText(chip->fontMetrics().elidedText(name, Qt::ElideMiddle, 240));
        chip->setToolTip(name);
        chip->setObjectName(QStringLiteral("attachmentChip"));
        chip->setStyleSheet(chipStyle());
        boxLayout->addWidget(chip);
        if (i < rows.size()) {
            auto* remove = new QToolButton(box);
            remove->setObjectName(QStringLiteral("attachmentChipRemove"));
            remove->setText(QStringLiteral("×"));
            remove->setAutoRaise(true);
            remove->setToolTip(tr("Remove %1 from this chat").arg(name));
            const int row = rows[i];
            connect(remove, &QToolButton::clicked, this,
                    [this, row] { Q_EMIT documentRemoveRequested(row); });
            boxLayout->addWidget(remove);
        }
        chipsLayout_->insertWidget(chipsLayout_->count() - 1, box);
    }
    chips_->setVisible(!names.isEmpty());
}

void ChatPane::setDocuments(const QList<ChatDocument>& documents) {
    ChatSession& chat = chats_[current_];
    if (chat.documents == documents)
        return;
    chat.documents = documents;
    updateCitationDocuments();
    save();
}

void ChatPane::updateCitationDocuments() {
    // Citations count the chat's PDFs in order, as the prompt labels them.
    transcript_->setCitationTargets(citationTargets(chats_[current_].documents));
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
    // The question goes last again (the prompt takes the last user message as the question),
    // with the documents it waited for; the notice stays above it, saying what happened.
    auto& messages = chats_[current_].messages;
    if (messages.size() >= 2 && messages.last().role == ChatMessage::Role::Notice &&
        messages[messages.size() - 2].role == ChatMessage::Role::User) {
        ChatMessage notice = messages.takeLast();
        // One whole sentence per state: translations cannot be edited in fragments.
        notice.text = tr("Waited for %1 to finish loading.").arg(waitingFor_);
        messages.last().attachments = attachments_;
        messages.insert(messages.size() - 1, notice);
        // Linked in the new order; earlier versions of the question stay its siblings.
        ChatSession& chat = chats_[current_];
        const qint64 oldParent = messages.last().parentId;
        const qint64 noticeId = messages[messages.size() - 2].id;
        for (ChatMessage& other : chat.otherVersions)
            if (other.parentId == oldParent && other.role == ChatMessage::Role::User)
                other.parentId = noticeId;
        linkMessages(chat);
        transcript_->showMessages(messages, false);
        save();
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
        ChatSession& chat = chats_[current_];
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
    const auto& messages = chats_[current_].messages;
    if (index >= 0 && index < messages.size())
        QGuiApplication::clipboard()->setText(messages[index].text);
}

void ChatPane::editAndResend(int index) {
    const auto& messages = chats_[current_].messages;
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
    ChatSession& chat = chats_[current_];
    auto& messages = chat.messages;
    if (generating_ || isWaiting() || !modelReady_)
        return;
    int question = -1;
    for (qsizetype i = messages.size() - 1; i >= 0 && question < 0; --i)
        if (messages[i].role == ChatMessage::Role::User)
            question = int(i);
    if (question < 0)
        return;
    // The answer (and what followed it) is kept as a version when there is something in it.
    bool keep = false;
    for (qsizetype i = question + 1; i < messages.size(); ++i)
        keep = keep || (messages[i].role == ChatMessage::Role::Assistant &&
                        (!messages[i].text.isEmpty() || !messages[i].toolCalls.isEmpty()));
    if (keep)
        branchAt(chat, question + 1);
    else
        messages.erase(messages.begin() + question + 1, messages.end());
    save();
    showCurrent();
    Q_EMIT sendRequested(messages.last().text);
}

void ChatPane::showVersion(int index, int version) {
    if (generating_ || isWaiting())
        return;
    if (isEditing())
        cancelEdit();
    if (!switchVersion(chats_[current_], index, version))
        return;
    save();
    showCurrent();
}

} // namespace folio::ui
