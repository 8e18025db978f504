#include "chat/question_image_attacher.h"

#include <QFutureWatcher>
#include <QtConcurrent>

#include <utility>

namespace folio::ui {

QuestionImageAttacher::QuestionImageAttacher(QObject* parent, QString dir)
    : QObject(parent), dir_(std::move(dir)) {}

void QuestionImageAttacher::attachFile(const QString& imagePath) {
    const QString dir = dir_;
    run(QtConcurrent::run([imagePath, dir] { return fileQuestionImage(imagePath, dir); }));
}

void QuestionImageAttacher::attachPage(const QString& pdfPath, int page, const QRectF& region) {
    const QString dir = dir_;
    const PageRenderParams params = params_;
    run(QtConcurrent::run([pdfPath, page, region, params, dir] {
        return pageQuestionImage(pdfPath, page, region, params, dir);
    }));
}

void QuestionImageAttacher::run(const QFuture<QuestionImageResult>& work) {
    ++pending_;
    auto* watcher = new QFutureWatcher<QuestionImageResult>(this);
    connect(watcher, &QFutureWatcher<QuestionImageResult>::finished, this, [this, watcher] {
        watcher->deleteLater();
        finish(watcher->result());
    });
    watcher->setFuture(work);
}

void QuestionImageAttacher::finish(const QuestionImageResult& result) {
    --pending_;
    if (result.ok())
        Q_EMIT attached(result.image);
    else
        Q_EMIT failed(result.error);
}

} // namespace folio::ui
