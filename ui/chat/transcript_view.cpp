#include "chat/transcript_view.h"

#include "chat/figure_marks.h"

#include "core/chat/citations.h"
#include "core/chat/question_image.h"
#include "core/pipeline/markdown_literal.h"
#include "style/palette_colors.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QMenu>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBlockFormat>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextImageFormat>
#include <QTimer>
#include <QUrl>

namespace folio::ui {

namespace {

using style::Tone;

QString roleColor(const QPalette& palette, ChatMessage::Role role) {
    switch (role) {
    case ChatMessage::Role::User:
        return style::css(style::toneText(palette, Tone::Accent));
    case ChatMessage::Role::Assistant:
        return style::css(style::toneText(palette, Tone::Positive));
    default:
        return style::css(style::toneText(palette, Tone::Warning));
    }
}

QString chipsHtml(const QPalette& palette, const QStringList& names) {
    const QColor background = style::toneBackground(palette, Tone::Accent);
    QString html;
    for (const QString& name : names)
        html += QStringLiteral(" <span style='background:%2; color:%3'>&nbsp;"
                               "%1&nbsp;</span>")
                    .arg(name.toHtmlEscaped(), style::css(background),
                         style::css(style::readable(style::link(palette), background)));
    return html;
}

// Links take the palette's link colour, made readable on its Base (HTML and Markdown links
// would otherwise keep the colour of the palette they were parsed under).
void colourLinks(QTextDocument* document, int from, const QColor& colour) {
    QList<QPair<int, int>> ranges;
    for (QTextBlock b = document->findBlock(from); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            if (f.isValid() && f.charFormat().isAnchor() &&
                !f.charFormat().anchorHref().isEmpty() &&
                f.charFormat().foreground().color() != colour &&
                !isFigureMarkUrl(f.charFormat().anchorHref())) // figure marks keep theirs
                ranges.append({f.position(), f.length()});
        }
    QTextCharFormat format;
    format.setForeground(colour);
    for (const auto& [position, length] : ranges) {
        QTextCursor c(document);
        c.setPosition(position);
        c.setPosition(position + length, QTextCursor::KeepAnchor);
        c.mergeCharFormat(format);
    }
}

quint64 blockKey(int messageIndex, int call) {
    return (quint64(quint32(messageIndex)) << 32) | quint32(call);
}

QString toolSummary(const ToolCallRecord& c) {
    if (!c.done)
        return QObject::tr("running…");
    if (!c.ok)
        return QObject::tr("refused or failed");
    const int rows = resultRows(c.result);
    return rows == 1 ? QObject::tr("1 row") : QObject::tr("%1 rows").arg(rows);
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
    // A theme switch lays the chat out again in the new palette's colours.
    style::followPalette(this, [this] {
        const int scroll = verticalScrollBar()->value();
        showMessages(messages_, generating_);
        verticalScrollBar()->setValue(scroll);
    });
}

void TranscriptView::showMessages(const QList<ChatMessage>& messages, bool generating) {
    throttle_->stop();
    messages_ = messages;
    generating_ = generating;
    document()->clear();
    lastIndex_ = -1;
    QTextCursor cursor(document());
    if (messages.isEmpty()) {
        cursor.insertHtml(
            QStringLiteral("<div style='color:%1'>%2</div>")
                .arg(style::css(style::mutedText(palette())),
                     tr("<h3>Ask about your documents</h3>"
                        "<p>Open a long report and chart screenshots on the left. Folio puts "
                        "whole documents in the model's context, with page markers so answers "
                        "can cite pages like [p. 12]; click a citation to open the page.</p>")));
        return;
    }
    for (qsizetype i = 0; i < messages.size(); ++i)
        insertMessage(cursor, messages[i], int(i), i + 1 == messages.size());
    colourLinks(document(), 0, style::link(palette()));
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
    messages_ = messages;
    QTextCursor cursor(document());
    const int from = lastStart_;
    cursor.setPosition(lastStart_);
    cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    insertMessage(cursor, messages[lastIndex_], lastIndex_, false);
    insertMessage(cursor, messages.last(), int(messages.size() - 1), true);
    colourLinks(document(), from, style::link(palette()));
    last_ = messages.last();
    scrollToEnd();
}

void TranscriptView::updateLast(const ChatMessage& last) {
    last_ = last;
    if (!messages_.isEmpty())
        messages_.last() = last;
    if (!throttle_->isActive())
        throttle_->start();
}

void TranscriptView::finishLast(const ChatMessage& last) {
    throttle_->stop();
    generating_ = false;
    last_ = last;
    if (!messages_.isEmpty())
        messages_.last() = last;
    renderLast();
}

void TranscriptView::setToolCallExpanded(int messageIndex, int call, bool expanded) {
    if (expanded == isToolCallExpanded(messageIndex, call))
        return;
    if (expanded)
        expanded_.insert(blockKey(messageIndex, call));
    else
        expanded_.remove(blockKey(messageIndex, call));
    const int scroll = verticalScrollBar()->value();
    const bool generating = generating_;
    showMessages(messages_, generating);
    verticalScrollBar()->setValue(scroll);
}

bool TranscriptView::isToolCallExpanded(int messageIndex, int call) const {
    return expanded_.contains(blockKey(messageIndex, call));
}

void TranscriptView::collapseToolCalls() {
    expanded_.clear();
}

void TranscriptView::setCitationTargets(const CitationTargets& targets) {
    if (citations_ == targets)
        return;
    citations_ = targets;
    if (!messages_.isEmpty()) {
        const int scroll = verticalScrollBar()->value();
        showMessages(messages_, generating_);
        verticalScrollBar()->setValue(scroll);
    }
}

void TranscriptView::insertQuestionImages(QTextCursor& cursor, const QList<QuestionImage>& images) {
    constexpr int kThumbHeight = 72;
    for (const QuestionImage& image : images) {
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
        const QUrl name(QStringLiteral("folio-image:") + image.file);
        if (document()->resource(QTextDocument::ImageResource, name).isNull()) {
            const QImage thumb = questionImageThumbnail(image.file, kThumbHeight);
            if (!thumb.isNull())
                document()->addResource(QTextDocument::ImageResource, name, thumb);
        }
        if (!document()->resource(QTextDocument::ImageResource, name).isNull()) {
            QTextImageFormat format;
            format.setName(name.toString());
            cursor.insertImage(format);
            cursor.insertText(QStringLiteral("  ") + image.label());
        } else {
            cursor.insertText(tr("%1 (image missing: %2)").arg(image.label(), image.file));
        }
    }
}

void TranscriptView::insertLeftOutDivider(QTextCursor& cursor, int questionIndex) {
    cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
    QTextBlockFormat line;
    line.setTopMargin(8);
    line.setAlignment(Qt::AlignCenter);
    line.setBackground(style::toneBackground(palette(), Tone::Warning));
    cursor.setBlockFormat(line);
    QString question = messages_.value(questionIndex).text.simplified();
    if (question.size() > 40)
        question = question.left(39) + QChar(0x2026);
    cursor.insertHtml(QStringLiteral("<span style='color:%2'>%1</span>")
                          .arg(tr("——— Earlier messages above were not in the prompt of "
                                  "“%1” ———")
                                   .arg(question)
                                   .toHtmlEscaped(),
                               style::css(style::toneText(palette(), Tone::Warning))));
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
    colourLinks(document(), lastStart_, style::link(palette()));
    if (atEnd)
        scrollToEnd();
}

void TranscriptView::insertMessage(QTextCursor& cursor, const ChatMessage& m, int index,
                                   bool isLast) {
    if (isLast) {
        lastIndex_ = index;
        lastStart_ = cursor.position();
    }
    // A question whose prompt left out the oldest N turns: the line goes where they end.
    for (qsizetype q = index; q < messages_.size(); ++q) {
        if (messages_[q].role != ChatMessage::Role::User)
            continue;
        const int n = messages_[q].leftOutTurns;
        if (n <= 0)
            continue;
        int turns = 0;
        int cut = -1; // the first message after the N-th turn
        for (qsizetype i = 0; i < q; ++i) {
            const ChatMessage& h = messages_[i];
            if (turns == n && cut < 0 &&
                (h.role == ChatMessage::Role::User || h.role == ChatMessage::Role::Assistant))
                cut = int(i);
            if (h.role == ChatMessage::Role::User ||
                (h.role == ChatMessage::Role::Assistant && !h.text.isEmpty()))
                ++turns;
        }
        if (cut < 0)
            cut = int(q);
        if (cut == index && index > 0)
            insertLeftOutDivider(cursor, int(q));
    }
    if (index > 0 || cursor.position() > 0)
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
    QTextBlockFormat header;
    header.setTopMargin(10);
    cursor.setBlockFormat(header);
    cursor.insertHtml(QStringLiteral("<b style='color:%1'>%2</b> <span style='color:%4'>%3</span>")
                          .arg(roleColor(palette(), m.role), roleName(m.role),
                               m.time.toString(QStringLiteral("HH:mm")),
                               style::css(style::mutedText(palette()))) +
                      chipsHtml(palette(), m.attachments));
    cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
    if (m.role == ChatMessage::Role::Assistant) {
        for (qsizetype k = 0; k < m.toolCalls.size(); ++k)
            insertToolCall(cursor, m.toolCalls[k], index, int(k));
        if (!m.toolCalls.isEmpty())
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
        if (m.text.isEmpty())
            cursor.insertText(generating_ && isLast ? QStringLiteral("…") : QString());
        else
            insertAnswer(cursor, m, index);
        if (!m.interrupted.isEmpty()) {
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
            // No answer at all: what happened and what to do; else the answer was cut off.
            const QString line =
                m.text.isEmpty() && m.toolCalls.isEmpty()
                    ? tr("[no answer: %1 — fix the cause, then click “regenerate” to ask again]")
                          .arg(m.interrupted)
                    : tr("[answer interrupted: %1]").arg(m.interrupted);
            cursor.insertHtml(QStringLiteral("<span style='color:%2'>%1</span>")
                                  .arg(line.toHtmlEscaped(),
                                       style::css(style::toneText(palette(), Tone::Negative))));
        }
    } else {
        cursor.insertText(m.text);
    }
    if (!m.images.isEmpty())
        insertQuestionImages(cursor, m.images);
    if (!m.contextNote.isEmpty()) {
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
        cursor.insertHtml(
            QStringLiteral("<span style='color:%2; font-size:small'>%1</span>")
                .arg(contextNoteLine(m).toHtmlEscaped(), style::css(style::mutedText(palette()))));
    }
    if (m.role == ChatMessage::Role::Notice || (isLast && generating_))
        return;
    if (const QString figures = figuresLine(m.figures); !figures.isEmpty()) {
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
        cursor.insertHtml(
            QStringLiteral("<span style='color:%2; font-size:small'>%1</span>")
                .arg(figures.toHtmlEscaped(), style::css(style::mutedText(palette()))));
    }
    QString footer;
    // "‹ 2/3 ›" in the text's size, before the small footer: the arrows are links while there
    // is a version that way.
    QString versions;
    if (const VersionPosition v = versions_ ? versions_(index) : VersionPosition(); v.count > 1) {
        const QString disabled = style::css(style::mutedText(palette()));
        auto arrow = [index, disabled](const QString& glyph, int target, bool enabled,
                                       const QString& tip) {
            if (!enabled)
                return QStringLiteral("<span style='color:%2'>%1</span>").arg(glyph, disabled);
            return QStringLiteral("<a href='folio:version/%1/%2' title='%3' "
                                  "style='text-decoration:none'>%4</a>")
                .arg(index)
                .arg(target)
                .arg(tip.toHtmlEscaped(), glyph);
        };
        versions = QStringLiteral("<b>%1 %2 %3</b>&nbsp;&nbsp;")
                       .arg(arrow(QStringLiteral("&nbsp;‹"), v.index - 1, v.index > 0,
                                  tr("Previous version")),
                            tr("%1/%2").arg(v.index + 1).arg(v.count),
                            arrow(QStringLiteral("›&nbsp;"), v.index + 1, v.index + 1 < v.count,
                                  tr("Next version")));
    }
    const QString stats = statsLine(m.stats);
    if (!stats.isEmpty())
        footer += stats.toHtmlEscaped() + QStringLiteral(" · ");
    footer += actionLink("copy", index, tr("copy"));
    if (m.role == ChatMessage::Role::User)
        footer += QStringLiteral(" · ") + actionLink("edit", index, tr("edit and resend"));
    if (m.role == ChatMessage::Role::Assistant && isLast)
        footer += QStringLiteral(" · ") + actionLink("regenerate", index, tr("regenerate"));
    cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
    cursor.insertHtml(versions + QStringLiteral("<span style='color:%2; font-size:small'>%1</span>")
                                     .arg(footer, style::css(style::mutedText(palette()))));
}

void TranscriptView::insertAnswer(QTextCursor& cursor, const ChatMessage& m, int index) {
    const int start = cursor.position();
    // "<" and "&" shown as written; each checked figure followed by its mark.
    const QString markdown = escapeRawHtml(withFigureMarks(m.text, m.figures, index));
    // An answer names its documents as they were when it was asked for.
    const CitationTargets targets = resolveCitedDocuments(m.citedDocuments, citations_);
    if (targets.documents.isEmpty()) {
        cursor.insertMarkdown(linkCitations(markdown, QString::fromLatin1(kCitationUrlPattern)));
    } else {
        cursor.insertMarkdown(
            linkCitations(markdown, targets.documents, [&targets](int document, int page) {
                return citationUrl(targets.rows.value(document, -1), page);
            }));
    }
    styleFigureMarks(start, cursor.position(), m);
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
        f.setBackground(style::codeBackground(palette()));
        c.setBlockFormat(f);
    }
}

void TranscriptView::styleFigureMarks(int from, int to, const ChatMessage& m) {
    const CitationTargets targets = resolveCitedDocuments(m.citedDocuments, citations_);
    QList<QPair<QPair<int, int>, QTextCharFormat>> marks;
    for (QTextBlock b = document()->findBlock(from); b.isValid() && b.position() <= to;
         b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            int figure = -1;
            if (!f.isValid() || !figureMarkFromUrl(f.charFormat().anchorHref(), nullptr, &figure))
                continue;
            const CheckedFigure* checked = figure < m.figures.size() ? &m.figures[figure] : nullptr;
            if (!checked)
                continue;
            QTextCharFormat format;
            format.setForeground(figureMarkColour(palette(), checked->state));
            format.setFontUnderline(false);
            format.setToolTip(figureMarkToolTip(*checked,
                                                targets.documents.value(checked->document).title,
                                                targets.documents.size()));
            marks.append({{f.position(), f.length()}, format});
        }
    for (const auto& [range, format] : marks) {
        QTextCursor c(document());
        c.setPosition(range.first);
        c.setPosition(range.first + range.second, QTextCursor::KeepAnchor);
        c.mergeCharFormat(format);
    }
}

void TranscriptView::contextMenuEvent(QContextMenuEvent* event) {
    std::unique_ptr<QMenu> menu(createStandardContextMenu(event->pos()));
    int message = -1;
    int figure = -1;
    if (figureMarkFromUrl(anchorAt(event->pos()), &message, &figure)) {
        const ChatMessage m = messages_.value(message);
        if (figure >= 0 && figure < m.figures.size() &&
            m.figures[figure].state == CheckedFigure::State::OtherPage &&
            m.figures[figure].foundPage > 0) {
            QAction* fix = new QAction(tr("Cite page %1 instead").arg(m.figures[figure].foundPage),
                                       menu.get());
            fix->setObjectName(QStringLiteral("citeFoundPage"));
            connect(fix, &QAction::triggered, this,
                    [this, message, figure] { Q_EMIT citationFixRequested(message, figure); });
            const QList<QAction*> actions = menu->actions();
            menu->insertAction(actions.isEmpty() ? nullptr : actions.first(), fix);
            if (!actions.isEmpty())
                menu->insertSeparator(actions.first());
        }
    }
    menu->exec(event->globalPos());
}

void TranscriptView::openFigure(int index, int figure) {
    const ChatMessage m = messages_.value(index);
    if (figure < 0 || figure >= m.figures.size())
        return;
    const CheckedFigure& f = m.figures[figure];
    if (f.state != CheckedFigure::State::Verified && f.state != CheckedFigure::State::OtherPage)
        return;
    const int page = f.foundPage > 0 ? f.foundPage : f.page;
    if (page <= 0)
        return;
    const CitationTargets targets = resolveCitedDocuments(m.citedDocuments, citations_);
    // The same document numbers as the answer's citation links.
    Q_EMIT figureActivated(targets.documents.isEmpty() ? -1 : targets.rows.value(f.document, -1),
                           page, f.match);
}

void TranscriptView::insertToolCall(QTextCursor& cursor, const ToolCallRecord& call,
                                    int messageIndex, int index) {
    const bool open = isToolCallExpanded(messageIndex, index);
    if (cursor.block().length() > 1)
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
    QTextBlockFormat line;
    line.setBackground(style::toneBackground(palette(), Tone::Accent));
    line.setLeftMargin(6);
    cursor.setBlockFormat(line);
    QString sql = call.query().simplified();
    if (sql.size() > 70)
        sql = sql.left(69) + QStringLiteral("…");
    cursor.insertHtml(QStringLiteral("<a href='folio:tool/%1/%2' style='text-decoration:none; "
                                     "color:%8'>%3 %4 <code>%5</code></a> <span "
                                     "style='color:%9'>— %6%7</span>")
                          .arg(messageIndex)
                          .arg(index)
                          .arg(open ? QStringLiteral("▾") : QStringLiteral("▸"), tr("Tool call"),
                               call.name.toHtmlEscaped(), toolSummary(call).toHtmlEscaped(),
                               open ? QString() : QStringLiteral(": ") + sql.toHtmlEscaped(),
                               style::css(style::link(palette())),
                               style::css(style::mutedText(palette()))));
    if (!open)
        return;
    cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
    const int codeStart = cursor.position();
    QTextCharFormat mono;
    mono.setFontFixedPitch(true);
    mono.setFontFamilies({QStringLiteral("monospace")});
    cursor.insertText(call.query(), mono);
    highlightCode(codeStart, cursor.position());
    cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
    if (!call.done) {
        cursor.insertText(tr("running…"));
    } else if (call.ok) {
        cursor.insertMarkdown(escapeRawHtml(displayResult(call.result)));
    } else {
        QTextCharFormat red;
        red.setForeground(style::toneText(palette(), Tone::Negative));
        cursor.insertText(call.result, red);
    }
}

void TranscriptView::highlightCode(int from, int to) {
    for (QTextBlock b = document()->findBlock(from); b.isValid() && b.position() <= to;
         b = b.next()) {
        QTextCursor c(b);
        QTextBlockFormat f = b.blockFormat();
        f.setBackground(style::codeBackground(palette()));
        f.setLeftMargin(12);
        c.setBlockFormat(f);
    }
}

void TranscriptView::onAnchor(const QUrl& url) {
    int markMessage = -1;
    int markFigure = -1;
    if (figureMarkFromUrl(url.toString(), &markMessage, &markFigure)) {
        openFigure(markMessage, markFigure);
        return;
    }
    if (const int page = pageFromCitationUrl(url.toString()); page > 0) {
        Q_EMIT citationActivated(-1, page);
        return;
    }
    int document = -1;
    int page = 0;
    if (citationFromUrl(url.toString(), &document, &page)) {
        Q_EMIT citationActivated(document, page);
        return;
    }
    if (url.scheme() != QLatin1String("folio"))
        return;
    const QString action = url.path().section(QLatin1Char('/'), 0, 0);
    const int index = url.path().section(QLatin1Char('/'), 1, 1).toInt();
    if (action == QLatin1String("tool")) {
        const int call = url.path().section(QLatin1Char('/'), 2, 2).toInt();
        setToolCallExpanded(index, call, !isToolCallExpanded(index, call));
        return;
    }
    if (action == QLatin1String("version")) {
        Q_EMIT versionRequested(index, url.path().section(QLatin1Char('/'), 2, 2).toInt());
        return;
    }
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
