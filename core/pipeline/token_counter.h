#pragma once
// Counts prompt tokens: exactly with the loaded model's tokenizer and chat template
// (Engine::count_tokens, through EngineWorker::counterChanged), or by an estimate from
// characters when no model is loaded or a remote server answers. Copies are cheap and may be
// used from any thread (the exact functions hold the engine weakly; once it is gone they fall
// back to the estimate).

#include "core/pipeline/chat_turn.h"

#include <QList>
#include <QMetaType>
#include <QString>

#include <functional>

namespace folio::ui {

class TokenCounter {
public:
    // Returns -1 when counting failed (then the estimate is used).
    using TextFn = std::function<qint64(const QString& text)>;
    using PromptFn = std::function<qint64(const QList<ChatTurn>& turns)>;

    TokenCounter() = default; // estimates only
    TokenCounter(QString tokenizerId, TextFn text, PromptFn prompt);

    // True when counts come from a tokenizer (then "fits" is a promise).
    bool exact() const { return static_cast<bool>(text_); }
    // Names the tokenizer (the model fingerprint): the key of cached counts. "" : estimates.
    const QString& tokenizerId() const { return id_; }

    // Tokens of a piece of text inside a prompt (no special tokens).
    qint64 text(const QString& text) const;
    // Tokens of the whole prompt the turns make, chat template included (images too).
    qint64 prompt(const QList<ChatTurn>& turns) const;

    // The estimates: ~4 characters per token for Latin text, one per CJK character; 8 tokens of
    // template markers per turn; 256 per image.
    static qint64 estimateText(const QString& text);
    static qint64 estimatePrompt(const QList<ChatTurn>& turns);

private:
    QString id_;
    TextFn text_;
    PromptFn prompt_;
};

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::TokenCounter)
