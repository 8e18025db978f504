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

#include <QApplication>
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

namespace {

// The composer in the palette's colours (issue #48 §13: under Adwaita-Dark the placeholder read
// as typed text and Send and Stop looked alike): a muted placeholder; Send in the accent (the
// palette's Highlight), Stop in the negative tone.
void colourComposer(QPlainTextEdit* input, QPushButton* send, QPushButton* stop) {
    const QPalette app = QApplication::palette();
    QPalette p = input->palette();
    p.setColor(QPalette::PlaceholderText, style::placeholderText(app));
    input->setPalette(p);
    QPalette s = send->palette();
    s.setColor(QPalette::Button, app.color(QPalette::Highlight));
    s.setColor(QPalette::ButtonText, app.color(QPalette::HighlightedText));
    send->setPalette(s);
    QPalette t = stop->palette();
    t.setColor(QPalette::Button, style::toneBackground(app, style::Tone::Negative));
    t.setColor(QPalette::ButtonText, style::toneText(app, style::Tone::Negative));
    stop->setPalette(t);
}

} // namespace

ChatPane::ChatPane(QWidget* parent) : ChatPane(nullptr, parent) {}

ChatPane::ChatPane(ChatLibrary* library, QWidget* parent)
    : QWidget(parent), library_(library ? library : new ChatLibrary(this)) {
    // Citations link to the chat's documents as the chat keeps them.
    connect(library_, &ChatLibrary::documentsChanged, this, &ChatPane::updateCitationDocuments);
    connect(library_, &ChatLibrary::storageFailed, this, &ChatPane::storageFailed);
    connect(library_, &ChatLibrary::workChanged, this, [this](const QString& id) {
        if (isShown(id))
            updateButtons();
    });
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
    connect(transcript_, &TranscriptView::figureActivated, this, &ChatPane::figureActivated);
    connect(transcript_, &TranscriptView::citationFixRequested, this,
            [this](int index, int figure) {
                const ChatSession& chat = library_->current();
                if (index >= 0 && index < chat.messages.size())
                    Q_EMIT citationFixRequested(chat.id, chat.messages[index].id, figure);
            });
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
    style::followPalette(input_, [this] { colourComposer(input_, sendButton_, stopButton_); });
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
    connect(stopButton_, &QPushButton::clicked, this, &ChatPane::stopCurrent);
    // Enter / Shift+Enter / Ctrl+Enter (chat/send_keys.h; the choice is in Settings).
    connect(new SendKeys(input_), &SendKeys::sendRequested, this, &ChatPane::send);
    auto* stopShortcut = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    stopShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(stopShortcut, &QShortcut::activated, this, &ChatPane::stopCurrent);

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
    transcript_->showMessages(library_->current().messages, isGenerating());
    setContextLimit(contextGauge_->limit());
    updateButtons();
    if (shownChatId_ != library_->current().id) {
        shownChatId_ = library_->current().id;
        if (isEditing())
            cancelEdit();
        Q_EMIT currentChatChanged();
    }
}

void ChatPane::newChat() {
    library_->newChat();
    showCurrent();
}

void ChatPane::selectChat(int index) {
    if (!library_->isValid(index))
        return;
    if (index != library_->currentIndex())
        transcript_->collapseToolCalls();
    library_->select(index);
    showCurrent();
}

void ChatPane::deleteChat(int index) {
    if (!library_->isValid(index))
        return;
    // What the chat is busy with stops first (an answer, a waiting question, a summary).
    const QString id = library_->chats().at(index).id;
    if (library_->isBusy(id))
        Q_EMIT stopRequested(id);
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
    const bool busy = library_->isBusy(library_->current().id);
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
    if (row < 0)
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
    if (role != ChatMessage::Role::User) {
        appendMessageTo(library_->current().id, role, text);
        return;
    }
    ChatMessage m;
    m.role = role;
    m.text = text;
    m.time = QDateTime::currentDateTime();
    m.attachments = chips_->names();
    m.images = imagesBar_->take(); // only the images attached to this question go with it
    folio::ui::appendMessage(library_->current(), std::move(m));
    transcript_->appendLast(library_->current().messages, isGenerating());
    library_->save();
    refreshList();
}

void ChatPane::setDataSources(const QStringList& paths, bool toolsEnabled) {
    library_->setDataSources(paths, toolsEnabled);
    dataBar_->setSources(paths, toolsEnabled);
}

bool ChatPane::isGenerating() const {
    const ChatLibrary::Work work = library_->work(library_->current().id);
    return work == ChatLibrary::Work::Answering || work == ChatLibrary::Work::Summarizing;
}

bool ChatPane::isWaiting() const {
    return library_->work(library_->current().id) == ChatLibrary::Work::Waiting;
}

void ChatPane::updateButtons() {
    const bool busy = library_->isBusy(library_->current().id);
    sendButton_->setEnabled(modelReady_ && !busy);
    stopButton_->setEnabled(busy);
}

void ChatPane::stopCurrent() {
    const QString id = library_->current().id;
    if (library_->isBusy(id))
        Q_EMIT stopRequested(id);
}

void ChatPane::setPreparingPrompt(const QString& chatId) {
    if (isShown(chatId))
        contextGauge_->showPreparing();
}

void ChatPane::setPrefillProgress(const QString& chatId, qint64 done, qint64 total,
                                  double etaSeconds) {
    if (isShown(chatId))
        contextGauge_->showPrefillProgress(done, total, etaSeconds);
}

void ChatPane::setImageProgress(const QString& chatId, int done, int total) {
    if (isShown(chatId))
        contextGauge_->showImageProgress(done, total);
}

void ChatPane::setAnswerProgress(const QString& chatId, qint64 tokens) {
    if (isShown(chatId))
        contextGauge_->showWriting(tokens);
}

void ChatPane::setModelReady(bool ready, const QString& reason) {
    modelReady_ = ready;
    updateButtons();
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

void ChatPane::setContextUsage(const QString& chatId, qint64 used, qint64 limit) {
    if (isShown(chatId))
        contextGauge_->showUsage(used, limit);
}

void ChatPane::setAttachments(const QStringList& names, const QList<int>& rows) {
    chips_->setAttachments(names, rows);
}

void ChatPane::setDocuments(const QList<ChatDocument>& documents) {
    library_->setDocuments(documents); // documentsChanged: the citations follow
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

void ChatPane::attachImage(const QuestionImage& image) {
    imagesBar_->add(image);
}

void ChatPane::submitText(const QString& text) {
    input_->setPlainText(text);
    send();
}

void ChatPane::send() {
    const QString text = input_->toPlainText().trimmed();
    if (!modelReady_ || library_->isBusy(library_->current().id) || text.isEmpty())
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
    // The controller asks it now, or when the documents it needs are read and the answer
    // being given in another chat has finished (it says so in the chat).
    Q_EMIT sendRequested(text, library_->current().id);
}

void ChatPane::copyMessage(int index) {
    const auto& messages = library_->current().messages;
    if (index >= 0 && index < messages.size())
        QGuiApplication::clipboard()->setText(messages[index].text);
}

void ChatPane::editAndResend(int index) {
    const auto& messages = library_->current().messages;
    if (library_->isBusy(library_->current().id) || index < 0 || index >= messages.size() ||
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
    if (library_->isBusy(library_->current().id) || !modelReady_ ||
        !prepareRegenerate(library_->current()))
        return;
    library_->save();
    showCurrent();
    Q_EMIT sendRequested(library_->current().messages.last().text, library_->current().id);
}

void ChatPane::showVersion(int index, int version) {
    if (library_->isBusy(library_->current().id))
        return;
    if (isEditing())
        cancelEdit();
    if (!switchVersion(library_->current(), index, version))
        return;
    library_->save();
    showCurrent();
}

} // namespace folio::ui
