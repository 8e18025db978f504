#pragma once
// The chat's context gauge: how much of the model's context the last answer used, and while a
// question is prepared its progress — planning the prompt, encoding page images, reading the
// prompt with the time left, then writing the answer.

#include <QProgressBar>

namespace folio::ui {

class ContextGauge : public QProgressBar {
    Q_OBJECT
public:
    explicit ContextGauge(QWidget* parent = nullptr);

    // `limit` ≤ 0: no model.
    void showUsage(qint64 used, qint64 limit);
    void showPreparing();
    void showImageProgress(int done, int total);
    void showPrefillProgress(qint64 done, qint64 total, double etaSeconds);
    // The prompt is read; the answer streams: "writing the answer: 42 tokens".
    void showWriting(qint64 tokens);
    qint64 limit() const { return limit_; }

private:
    void showShare(qint64 done, qint64 total, const QString& format);

    qint64 limit_ = 0;
};

} // namespace folio::ui
