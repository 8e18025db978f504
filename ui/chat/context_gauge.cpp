#include "chat/context_gauge.h"

#include "core/pipeline/human_format.h"

namespace folio::ui {

ContextGauge::ContextGauge(QWidget* parent) : QProgressBar(parent) {
    setFormat(tr("context: no model"));
    setValue(0);
}

void ContextGauge::showShare(qint64 done, qint64 total, const QString& format) {
    setRange(0, 1000);
    setValue(total > 0 ? static_cast<int>(qMin<qint64>(1000, done * 1000 / total)) : 0);
    setFormat(format);
}

void ContextGauge::showUsage(qint64 used, qint64 limit) {
    limit_ = limit;
    if (limit <= 0) {
        setFormat(tr("context: no model"));
        setValue(0);
        return;
    }
    showShare(used, limit,
              tr("context: %L1 / %L2 tokens (%3%)")
                  .arg(used)
                  .arg(limit)
                  .arg(used * 100.0 / limit, 0, 'f', 1));
}

void ContextGauge::showPreparing() {
    showShare(0, 1, tr("Preparing the prompt…"));
}

void ContextGauge::showImageProgress(int done, int total) {
    showShare(done, total, tr("Encoding page images %1/%2…").arg(done).arg(total));
}

void ContextGauge::showPrefillProgress(qint64 done, qint64 total, double etaSeconds) {
    showShare(done, total,
              tr("reading the prompt: %L1 / %L2 tokens · %3 left")
                  .arg(done)
                  .arg(total)
                  .arg(humanEta(etaSeconds)));
}

void ContextGauge::showWriting(qint64 tokens) {
    showShare(1, 1,
              tokens == 1 ? tr("writing the answer: 1 token")
                          : tr("writing the answer: %L1 tokens").arg(tokens));
}

} // namespace folio::ui
