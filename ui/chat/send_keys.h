#pragma once
// The keys of the question box (issue #25): by default Enter sends and Shift+Enter starts a new
// line, as in other chat programs; with "Enter sends" off in Settings, Enter is a new line and
// Ctrl+Enter sends (Ctrl+Enter always sends). The box's placeholder says which.

#include <QObject>

class QPlainTextEdit;

namespace folio::ui {

class SendKeys : public QObject {
    Q_OBJECT
public:
    // Watches `input` (and is its child).
    explicit SendKeys(QPlainTextEdit* input);

    void setEnterSends(bool enterSends);
    bool enterSends() const { return enterSends_; }

Q_SIGNALS:
    void sendRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updatePlaceholder();

    QPlainTextEdit* input_;
    bool enterSends_ = true;
};

} // namespace folio::ui
