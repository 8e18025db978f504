#include "chat/transcript_view.h"

#include "chat/citations.h"

#include <QScrollBar>
#include <QTextBlock>
#include <QTextBlockFormat>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QTimer>
#include <QUrl>

namespace folio::ui {

namespace {

QString roleColor(ChatMessage::Role role) {
    switch (role) {
    case ChatMessage::Role::User:
        return QStringLiteral("#1f4e8c");
    case ChatMessage::Role::Assistant:
        return QStringLiteral("#1b7a3d");
    default:
        return QStringLiteral("#8a6d00");
    }
}

QString chipsHtml(const QStringList& names) {
    QString html;
    for (const QString& name : names)
        html += QStringLiteral(" <span style='background:#e8eef7; color:#1f4e8c'>&nbsp;"
                               "%1&nbsp;</span>")
                    .arg(name.toHtmlEscaped());
    return html;
}

QString actionLink(const char* action, int index, const QString& label) {
    return QStringLiteral("<a href='folio:%1/%2'>%3</a>")
        .arg(QLatin1String(action))
        .arg(index)
        .arg(label);
}

} // namespace

TranscriptView::TranscriptView(QWidget* parent) : QTextBrowser(parent) {
    setOpenLinks(false);
    setOpenExternalLinks(false);
    throttle_ = new QTimer(this);
    throttle_->setSingleShot(true);
    throttle_->setInterval(100);
    connect(throttle_, &QTimer::timeout, this, &TranscriptView::renderLast);
    connect(this, &QTextBrowser::anchorClicked, this, &TranscriptView::onAnchor);
}

void TranscriptView::showMessages(const QList<ChatMessage>& messages, bool generating) {
    throttle_->stop();
    generating_ = generating;
    document()->clear();
    lastIndex_ = -1;
    QTextCursor cursor(document());
    if (messages.isEmpty()) {
        cursor.insertHtml(
            tr("<div style='color:#667'><h3>Ask about your documents</h3>"
               "<p>Open a long report and chart screenshots on the left. Folio puts whole "
               "documents in the model's context, with page markers so answers can cite "
               "pages like [p. 12]; click a citation to open the page.</p></div>"));
        return;
    }
    for (qsizetype i = 0; i < messages.size(); ++i)
        insertMessage(cursor, messages[i], int(i), i + 1 == messages.size());
    last_ = messages.last();
    scrollToEnd();
}

void TranscriptView::appendLast(const QList<ChatMessage>& messages, bool generating) {
    if (lastIndex_ < 0 || lastIndex_ + 2 != messages.size()) {
        showMessages(messages, generating);
        return;
    }
    throttle_->stop();
    generating_ = generating;
    QTextCursor cursor(document());
    cursor.setPosition(lastStart_);
    cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    insertMessage(cursor, messages[lastIndex_], lastIndex_, false);
    insertMessage(cursor, messages.last(), int(messages.size() - 1), true);
    last_ = messages.last();
    scrollToEnd();
}

void TranscriptView::updateLast(const ChatMessage& last) {
    last_ = last;
    if (!throttle_->isActive())
        throttle_->start();
}

void TranscriptView::finishLast(const ChatMessage& last) {
    throttle_->stop();
    generating_ = false;
    last_ = last;
    renderLast();
}

void TranscriptView::flush() {
    if (throttle_->isActive()) {
        throttle_->stop();
        renderLast();
    }
}

void TranscriptView::renderLast() {
    if (lastIndex_ < 0)
        return;
    const bool atEnd = verticalScrollBar()->value() >= verticalScrollBar()->maximum() - 4;
    QTextCursor cursor(document());
    cursor.setPosition(lastStart_);
    cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    insertMessage(cursor, last_, lastIndex_, true);
    if (atEnd)
        scrollToEnd();
}

void TranscriptView::insertMessage(QTextCursor& cursor, const ChatMessage& m, int index,
                                   bool isLast) {
    if (isLast) {
        lastIndex_ = index;
        lastStart_ = cursor.position();
    }
    if (index > 0 || cursor.position() > 0)
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
    QTextBlockFormat header;
    header.setTopMargin(10);
    cursor.setBlockFormat(header);
    cursor.insertHtml(
        QStringLiteral("<b style='color:%1'>%2</b> <span style='color:#999'>%3</span>")
            .arg(roleColor(m.role), roleName(m.role), m.time.toString(QStringLiteral("HH:mm"))) +
        chipsHtml(m.attachments));
    cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
    if (m.role == ChatMessage::Role::Assistant) {
        if (m.text.isEmpty())
            cursor.insertText(generating_ && isLast ? QStringLiteral("…") : QString());
        else
            insertAnswer(cursor, m.text);
    } else {
        cursor.insertText(m.text);
    }
    if (m.role == ChatMessage::Role::Notice || (isLast && generating_))
        return;
    QString footer;
    const QString stats = statsLine(m.stats);
    if (!stats.isEmpty())
        footer += stats.toHtmlEscaped() + QStringLiteral(" · ");
    footer += actionLink("copy", index, tr("copy"));
    if (m.role == ChatMessage::Role::User)
        footer += QStringLiteral(" · ") + actionLink("edit", index, tr("edit and resend"));
    if (m.role == ChatMessage::Role::Assistant && isLast)
        footer += QStringLiteral(" · ") + actionLink("regenerate", index, tr("regenerate"));
    cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
    cursor.insertHtml(
        QStringLiteral("<span style='color:#888; font-size:small'>%1</span>").arg(footer));
}

void TranscriptView::insertAnswer(QTextCursor& cursor, const QString& markdown) {
    const int start = cursor.position();
    cursor.insertMarkdown(linkCitations(markdown, QString::fromLatin1(kCitationUrlPattern)));
    // Code blocks (fixed-pitch paragraphs) on a light grey background.
    for (QTextBlock b = document()->findBlock(start);
         b.isValid() && b.position() <= cursor.position(); b = b.next()) {
        const QTextBlockFormat bf = b.blockFormat();
        const bool code =
            bf.hasProperty(QTextFormat::BlockCodeFence) ||
            bf.hasProperty(QTextFormat::BlockCodeLanguage) ||
            (b.begin() != b.end() && b.begin().fragment().charFormat().fontFixedPitch());
        if (!code)
            continue;
        QTextCursor c(b);
        QTextBlockFormat f = b.blockFormat();
        f.setBackground(QColor(0xf3, 0xf4, 0xf6));
        c.setBlockFormat(f);
    }
}

void TranscriptView::onAnchor(const QUrl& url) {
    if (const int page = pageFromCitationUrl(url.toString()); page > 0) {
        Q_EMIT citationActivated(page);
        return;
    }
    if (url.scheme() != QLatin1String("folio"))
        return;
    const QString action = url.path().section(QLatin1Char('/'), 0, 0);
    const int index = url.path().section(QLatin1Char('/'), 1, 1).toInt();
    if (action == QLatin1String("copy"))
        Q_EMIT actionActivated(Action::Copy, index);
    else if (action == QLatin1String("edit"))
        Q_EMIT actionActivated(Action::Edit, index);
    else if (action == QLatin1String("regenerate"))
        Q_EMIT actionActivated(Action::Regenerate, index);
}

void TranscriptView::scrollToEnd() {
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

} // namespace folio::ui
