#pragma once
// A model's answer is Markdown, but Markdown passes raw HTML through: "R_init_<pkg>. See
// [p. 146]" shown by QTextDocument's Markdown reader loses everything after "<" (an unknown tag),
// and "&amp;" turns into "&". An answer must display as written, so before it is rendered
// every "<" and "&" outside code (code spans and fenced blocks, where Markdown takes text
// literally already) gets a backslash escape, which CommonMark turns back into the character
// (commonmark.org/spec, "Backslash escapes"). Markdown itself (emphasis, lists, tables,
// links) is left as it is.

#include <QString>

namespace folio::ui {

QString escapeRawHtml(const QString& markdown);

} // namespace folio::ui
