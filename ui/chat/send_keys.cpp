#include "chat/send_keys.h"

#include <QEvent>
#include <QKeyEvent>
#include <QPlainTextEdit>

namespace folio::ui {

SendKeys::SendKeys(QPlainTextEdit* input) : QObject(input), input_(input) {
    setObjectName(QStringLiteral("sendKeys"));
    input->installEventFilter(this);
    updatePlaceholder();
}

void SendKeys::setEnterSends(bool enterSends) {
    enterSends_ = enterSends;
    updatePlaceholder();
}

void SendKeys::updatePlaceholder() {
    input_->setPlaceholderText(
        enterSends_ ? tr("Ask about the open documents… (Enter to send, Shift+Enter for a new "
                         "line, Esc to stop)")
                    : tr("Ask about the open documents… (Ctrl+Enter to send, Esc to stop)"));
}

bool SendKeys::eventFilter(QObject* watched, QEvent* event) {
    if (watched != input_ || event->type() != QEvent::KeyPress)
        return false;
    const auto* key = static_cast<QKeyEvent*>(event);
    if (key->key() != Qt::Key_Return && key->key() != Qt::Key_Enter)
        return false;
    const Qt::KeyboardModifiers mods = key->modifiers() & ~Qt::KeypadModifier;
    const bool send = mods == Qt::ControlModifier || (enterSends_ && mods == Qt::NoModifier);
    if (send) {
        Q_EMIT sendRequested();
        return true;
    }
    if (enterSends_ && mods == Qt::ShiftModifier) {
        // Shift+Enter would insert a line separator (U+2028): a plain new line instead.
        input_->textCursor().insertBlock();
        input_->ensureCursorVisible();
        return true;
    }
    return false;
}

} // namespace folio::ui
