#pragma once
// One answer's progress for the chat's gauge (issue #48 §9, §11): while the prompt is read,
// the time left from the measured rate (pipeline/eta), re-evaluated every second so it never
// stands still between the engine's chunks; once the first token arrives, the answer being
// written. Keyed by request id: another request's signals start afresh. The clock is passed in
// (tests script it); by default a steady clock.

#include "core/pipeline/eta.h"

#include <QObject>

#include <functional>

class QTimer;

namespace folio::ui {

class AnswerProgress : public QObject {
    Q_OBJECT
public:
    using Clock = std::function<double()>; // seconds on a steady clock
    enum class Phase { Idle, Reading, Writing };

    explicit AnswerProgress(QObject* parent = nullptr, Clock clock = {});

    // The engine read `done` of the prompt's `total` tokens for request `requestId`;
    // `engineEta`: the engine's own estimate, shown until a rate has been measured here.
    void prefill(qint64 requestId, qint64 done, qint64 total, double engineEta = -1);
    // A piece of the answer of request `requestId` arrived.
    void token(qint64 requestId);
    // The request ended (or was dropped): nothing more to show.
    void stop();
    // Re-evaluates the time left (the timer calls it each second while reading).
    void tick();
    Phase phase() const { return phase_; }
    void setClock(Clock clock) { clock_ = std::move(clock); }

Q_SIGNALS:
    void reading(qint64 done, qint64 total, double etaSeconds);
    void writing(qint64 tokens);

private:
    void restartFor(qint64 requestId);
    double remaining(double now) const;

    Clock clock_;
    QTimer* timer_;
    EtaEstimator eta_;
    qint64 request_ = 0;
    Phase phase_ = Phase::Idle;
    qint64 done_ = 0, total_ = 0, tokens_ = 0;
    double engineEta_ = -1, engineEtaAt_ = 0;
};

} // namespace folio::ui
