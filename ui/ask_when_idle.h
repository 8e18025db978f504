#pragma once
// folio --ask: asks the question once the window is idle (model and documents loaded) and the
// question's images are ready. An object with its own lifetime (a child of the window), so a
// retry while images are still being prepared cannot lose the question.
#include <QObject>
#include <QString>

namespace folio::ui {

class MainWindow;

class AskWhenIdle : public QObject {
    Q_OBJECT
public:
    AskWhenIdle(MainWindow* window, QString question);

Q_SIGNALS:
    // The window went idle without a loaded model: the question cannot be asked.
    void noModel();
    // The question went to the chat.
    void asked();

private:
    void tryAsk();

    MainWindow* window_;
    QString question_;
};

} // namespace folio::ui
