#pragma once
// Turns what the user attaches to the next question — an image file, a PDF page, a part of a
// page — into a stored QuestionImage in the thread pool (rendering a page at the projector's
// resolution takes a moment), then reports it or says what went wrong.

#include "core/chat/question_image.h"

#include <QFuture>
#include <QObject>

namespace folio::ui {

class QuestionImageAttacher : public QObject {
    Q_OBJECT
public:
    explicit QuestionImageAttacher(QObject* parent = nullptr,
                                   QString dir = defaultQuestionImageDir());

    const QString& dir() const { return dir_; }
    // Attachments being prepared.
    int pending() const { return pending_; }

public Q_SLOTS:
    void attachFile(const QString& imagePath);
    // Page `page` (1-based) of the PDF at `pdfPath`; `region` in fractions of the page (empty or
    // (0, 0, 1, 1): the whole page).
    void attachPage(const QString& pdfPath, int page, const QRectF& region = {});

Q_SIGNALS:
    void attached(const folio::ui::QuestionImage& image);
    // What went wrong, for the user (what happened, what to do).
    void failed(const QString& message);

private:
    // Counts `work` as pending until it ends, then reports it through finish().
    void run(const QFuture<QuestionImageResult>& work);
    void finish(const QuestionImageResult& result);

    QString dir_;
    PageRenderParams params_;
    int pending_ = 0;
};

} // namespace folio::ui
