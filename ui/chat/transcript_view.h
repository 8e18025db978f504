#pragma once
// The transcript of one chat: user questions as plain text, answers as Markdown (tables, lists,
// code) with "[p. N]" citations as links, per-message stats and action links (copy, edit and
// resend, regenerate) with the message's versions ("‹ 2/3 ›"). While an answer streams only the
// last message is laid out again, at most every 100 ms, so a token costs the GUI thread next to
// nothing however long the chat is. An answer's tool calls come first, each as a block collapsed to
// one line (the tool and the size of its result); a click on the line shows the SQL and the result
// table (cut to a readable size). An answer cut off by an error ends with "[answer interrupted:
// ...]". Each checked figure of an answer (issue #46 §2) has a small mark after it (✓ verified, ⚠
// on another page, ✗ not found, ? no citation) whose tooltip quotes the page's line; a click on a
// found one opens its page; "Figures: 7 verified · …" is under the answer. A figure on another
// page than cited offers "Cite page K instead" in the mark's context menu.

#include "core/chat/chat_message.h"
#include "core/chat/citations.h"
#include "core/chat/message_versions.h"

#include <QList>
#include <QSet>
#include <QTextBrowser>

#include <functional>

class QTimer;

namespace folio::ui {

class TranscriptView : public QTextBrowser {
    Q_OBJECT
public:
    enum class Action { Copy, Edit, Regenerate };

    explicit TranscriptView(QWidget* parent = nullptr);

    // Lays out every message. `generating`: the last message is an answer in progress.
    void showMessages(const QList<ChatMessage>& messages, bool generating);
    // `messages` is what was shown plus one message at the end: lays out only the previous last
    // message (its links change) and the new one.
    void appendLast(const QList<ChatMessage>& messages, bool generating);
    // The last message changed (streaming): laid out again within 100 ms.
    void updateLast(const ChatMessage& last);
    // The answer in progress is complete: its final text, stats and links are laid out now.
    void finishLast(const ChatMessage& last);
    // Pending streaming updates are applied now (tests, screenshots).
    void flush();
    // Tool-call block `call` of message `messageIndex` (collapsed unless expanded here or by a
    // click on its line; a new chat starts collapsed).
    void setToolCallExpanded(int messageIndex, int call, bool expanded);
    bool isToolCallExpanded(int messageIndex, int call) const;
    void collapseToolCalls();
    // The documents citations point at (the chat's PDFs in prompt order) and, for each, its
    // place among the chat's documents (what citationActivated reports). Lays out again.
    void setCitationTargets(const CitationTargets& targets);
    // Where message `index` stands among its versions (ChatPane: message_versions.h); a message
    // with more than one shows "‹ 2/3 ›" in its footer, the arrows asking for its neighbours
    // (versionRequested).
    void setVersionLookup(std::function<VersionPosition(int index)> lookup) {
        versions_ = std::move(lookup);
    }

Q_SIGNALS:
    // `document`: the chat's document (-1: a citation that names none, e.g. in an old chat;
    // kRemovedDocument: the document the answer cites has left the chat).
    void citationActivated(int document, int page);
    // A figure's mark: its page `page` of document `document` (as citationActivated), with
    // `match` (the page's figure as the page writes it; "" when not known) to highlight there.
    void figureActivated(int document, int page, const QString& match);
    void actionActivated(folio::ui::TranscriptView::Action action, int messageIndex);
    // "‹" or "›" on message `messageIndex`: show its version `version` (0-based).
    void versionRequested(int messageIndex, int version);
    // "Cite page K instead" on the mark of figure `figure` of message `messageIndex`.
    void citationFixRequested(int messageIndex, int figure);

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void insertMessage(QTextCursor& cursor, const ChatMessage& m, int index, bool isLast);
    void insertAnswer(QTextCursor& cursor, const ChatMessage& m, int index);
    // The marks of `m`'s checked figures between `from` and `to` (figure_marks.h): colours and
    // tooltips.
    void styleFigureMarks(int from, int to, const ChatMessage& m);
    // A click on figure `figure` of message `index`: its page, when it was found on one.
    void openFigure(int index, int figure);
    void insertToolCall(QTextCursor& cursor, const ToolCallRecord& call, int messageIndex,
                        int index);
    void highlightCode(int from, int to);
    void renderLast();
    void onAnchor(const QUrl& url);
    void scrollToEnd();

    void insertLeftOutDivider(QTextCursor& cursor, int questionIndex);
    // Thumbnails of a question's images with their labels (a missing file is named).
    void insertQuestionImages(QTextCursor& cursor, const QList<QuestionImage>& images);

    QTimer* throttle_ = nullptr;
    CitationTargets citations_;
    std::function<VersionPosition(int)> versions_;
    QList<ChatMessage> messages_; // what is shown (laid out again when a block opens or closes)
    QSet<quint64> expanded_;      // (message index << 32) | call index
    ChatMessage last_;
    int lastIndex_ = -1;
    int lastStart_ = 0; // document position where the last message begins
    bool generating_ = false;
};

} // namespace folio::ui
