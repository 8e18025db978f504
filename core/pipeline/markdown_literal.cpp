#include "core/pipeline/markdown_literal.h"

#include <QStringList>

namespace folio::ui {

namespace {

// A fence line opens or closes a fenced code block: up to three spaces, then ``` or ~~~.
QString fenceOf(const QString& line) {
    qsizetype i = 0;
    while (i < line.size() && i < 3 && line[i] == QLatin1Char(' '))
        ++i;
    if (i >= line.size() || (line[i] != QLatin1Char('`') && line[i] != QLatin1Char('~')))
        return {};
    const QChar c = line[i];
    qsizetype n = 0;
    while (i + n < line.size() && line[i + n] == c)
        ++n;
    return n >= 3 ? QString(n, c) : QString();
}

// Backticks from `at` on: the length of the run.
qsizetype runOfBackticks(const QString& s, qsizetype at) {
    qsizetype n = 0;
    while (at + n < s.size() && s[at + n] == QLatin1Char('`'))
        ++n;
    return n;
}

// The end of the code span opened by `n` backticks at `at` (the index after its closing run),
// or -1 when no run of exactly `n` backticks closes it (then the backticks are plain text).
qsizetype codeSpanEnd(const QString& s, qsizetype at, qsizetype n) {
    for (qsizetype i = at + n; i < s.size();) {
        if (s[i] != QLatin1Char('`')) {
            ++i;
            continue;
        }
        const qsizetype run = runOfBackticks(s, i);
        if (run == n)
            return i + run;
        i += run;
    }
    return -1;
}

// Backslashes right before `at` (an odd count escapes the character at `at` already).
qsizetype backslashesBefore(const QString& s, qsizetype at) {
    qsizetype n = 0;
    while (at - n - 1 >= 0 && s[at - n - 1] == QLatin1Char('\\'))
        ++n;
    return n;
}

// A paragraph's text (fences excluded): "<" and "&" escaped outside its code spans. Code spans
// may cross lines, so the text goes as a whole.
QString escapeText(const QString& s) {
    QString out;
    out.reserve(s.size() + s.size() / 16);
    for (qsizetype i = 0; i < s.size();) {
        const QChar c = s[i];
        if (c == QLatin1Char('`') && backslashesBefore(s, i) % 2 == 0) {
            const qsizetype n = runOfBackticks(s, i);
            const qsizetype end = codeSpanEnd(s, i, n);
            const qsizetype to = end < 0 ? i + n : end;
            out += s.mid(i, to - i);
            i = to;
            continue;
        }
        if ((c == QLatin1Char('<') || c == QLatin1Char('&')) && backslashesBefore(s, i) % 2 == 0)
            out += QLatin1Char('\\');
        out += c;
        ++i;
    }
    return out;
}

} // namespace

QString escapeRawHtml(const QString& markdown) {
    const QStringList lines = markdown.split(QLatin1Char('\n'));
    QStringList out;
    out.reserve(lines.size());
    QStringList text; // lines outside code blocks, escaped together
    QString fence;    // the open fence ("" outside a fenced block)
    auto flush = [&] {
        if (!text.isEmpty())
            out += escapeText(text.join(QLatin1Char('\n'))).split(QLatin1Char('\n'));
        text.clear();
    };
    for (const QString& line : lines) {
        const QString f = fenceOf(line);
        if (fence.isEmpty()) {
            if (!f.isEmpty()) {
                flush();
                fence = f;
                out << line;
            } else {
                text << line;
            }
            continue;
        }
        out << line; // inside a fenced block: literal already
        // A closing fence: the same character, at least as long, nothing after it.
        if (!f.isEmpty() && f[0] == fence[0] && f.size() >= fence.size() && line.trimmed() == f)
            fence.clear();
    }
    flush();
    return out.join(QLatin1Char('\n'));
}

} // namespace folio::ui
