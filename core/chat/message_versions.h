#pragma once
// Versions of messages: a chat is a tree, as Open WebUI keeps it. ChatSession::messages is the
// chosen branch (first message to last: what is shown, asked with and exported);
// ChatSession::otherVersions holds the messages of every other branch. Each message names the
// message before it (ChatMessage::parentId); messages with the same parent are versions of each
// other, numbered in the order they were made (their ids). Editing a question or regenerating
// an answer first moves the old message and everything after it out of the chosen branch
// (branchAt), then the new message is appended as its sibling: nothing is deleted.

#include "core/chat/chat_session.h"

namespace folio::ui {

// Where a message stands among its versions: `index` 0-based, `count` ≥ 1.
struct VersionPosition {
    int index = 0;
    int count = 1;
};

// The id the next message of `chat` gets (one more than the largest in use).
qint64 nextMessageId(const ChatSession& chat);
// Gives every message without an id one and links the chosen branch (each message's parent is
// the one before it): chats of file versions 1 and 2, messages made without ids.
void linkMessages(ChatSession& chat);
// The versions of messages[index] (its siblings, itself included).
VersionPosition versionOf(const ChatSession& chat, int index);
// Moves messages[index] and everything after it out of the chosen branch, kept in
// otherVersions: a message appended next is a new version of messages[index].
void branchAt(ChatSession& chat, int index);
// Shows version `version` (0-based, as versionOf counts) of messages[index] and below it the
// branch that was shown last under that version. False (nothing changes) when there is none.
bool switchVersion(ChatSession& chat, int index, int version);

} // namespace folio::ui
