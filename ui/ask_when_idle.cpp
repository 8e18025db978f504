#include "ask_when_idle.h"

#include "chat/question_image_attacher.h"
#include "main_window.h"

#include <QTimer>

namespace folio::ui {

namespace {
constexpr int kImageRetryMs = 100;
}

AskWhenIdle::AskWhenIdle(MainWindow* window, QString question)
    : QObject(window), window_(window), question_(std::move(question)) {
    // Queued: `idle` may come from within the window's handler of the model being loaded;
    // the question goes once that handler has finished.
    connect(window, &MainWindow::idle, this, &AskWhenIdle::tryAsk,
            Qt::ConnectionType(Qt::SingleShotConnection | Qt::QueuedConnection));
}

void AskWhenIdle::tryAsk() {
    if (!window_->modelReady()) {
        Q_EMIT noModel();
        return;
    }
    // Images given with the question (a chart on the command line, --attach-page) are read on
    // a worker thread; the question waits for them.
    if (window_->imageAttacher()->pending() > 0) {
        QTimer::singleShot(kImageRetryMs, this, &AskWhenIdle::tryAsk);
        return;
    }
    window_->ask(question_);
    Q_EMIT asked();
}

} // namespace folio::ui
