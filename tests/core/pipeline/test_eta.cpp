// pipeline/eta (issue #48 §9): an ETA covers the whole job, follows the measured rate and never
// freezes. Scripted timelines, time passed in: a 210-part job that slows 4x, a reading that
// stops reporting for 60 s, and the prompt-reading gauge's chunks that grow slower.
#include <QtTest>

#include "core/pipeline/eta.h"
#include "core/pipeline/human_format.h"

using namespace folio::ui;

class TestEta : public QObject {
    Q_OBJECT
private slots:
    void nothingMeasuredIsUnknown() {
        EtaEstimator eta;
        eta.start(100, 0);
        QVERIFY(eta.remaining(0) < 0);
        QVERIFY(eta.remaining(30) < 0);
        eta.progress(0, 10); // no work done: still nothing measured
        QVERIFY(eta.remaining(10) < 0);
    }

    void steadyRateCountsDown() {
        // 100 units at 1 unit/s, reported every 5 units: at unit 50 (t = 50 s) 50 s are left,
        // and 2 s later 48 s (on schedule: the next report is due at 55 s).
        EtaEstimator eta;
        eta.start(100, 0);
        for (int i = 5; i <= 50; i += 5)
            eta.progress(i, i);
        QCOMPARE(qRound(eta.remaining(50)), 50);
        QCOMPARE(qRound(eta.remaining(52)), 48);
        eta.progress(100, 100);
        QCOMPARE(eta.remaining(100), 0.0);
    }

    void aFourfoldSlowdownIsFollowed() {
        // The summary of issue #48: 210 parts, the first 90 at 2 s each, the rest at 8 s (4x
        // slower). At part 105 the slowdown has been measured on 15 parts; the truth is
        // 105 × 8 s = 840 s left. The whole-job average (what the old ETA used) says
        // 300 s / 105 parts × 105 = 300 s: 64% short. The estimate must be within 10%.
        EtaEstimator eta;
        eta.start(210, 0);
        double t = 0;
        for (int part = 1; part <= 105; ++part) {
            t += part <= 90 ? 2.0 : 8.0;
            eta.progress(part, t);
        }
        QCOMPARE(t, 300.0);
        const double truth = 105 * 8.0;
        const double left = eta.remaining(t);
        qInfo("at part 105: %.0f s left (truth %.0f s)", left, truth);
        QVERIFY2(qAbs(left - truth) <= 0.10 * truth, qPrintable(QString::number(left)));
        // And it keeps following: at part 150 the truth is 60 × 8 = 480 s.
        for (int part = 106; part <= 150; ++part) {
            t += 8.0;
            eta.progress(part, t);
        }
        QVERIFY(qAbs(eta.remaining(t) - 480) <= 0.05 * 480);
    }

    void noProgressForAMinuteGrowsTheEstimate() {
        // A document row: 21% read after 21 s (reports every 3%), "about 1 min left"; then no
        // progress for 60 s. The estimate may count down until the next report is due (3 s),
        // then it must grow with every second of waiting, and the text with it.
        EtaEstimator eta;
        eta.start(100, 0);
        for (int pct = 3; pct <= 21; pct += 3)
            eta.progress(pct, pct);
        const double at = 21;
        QCOMPARE(qRound(eta.remaining(at)), 79);
        QVERIFY(eta.remaining(at + 3) < eta.remaining(at)); // on schedule: counts down
        double previous = eta.remaining(at + 3);
        for (int s = 5; s <= 60; s += 5) {
            const double now = eta.remaining(at + s);
            QVERIFY2(now > previous, qPrintable(QStringLiteral("%1 s: %2").arg(s).arg(now)));
            previous = now;
        }
        // Never less than the time past due, and the rest at least at the slower rate.
        QVERIFY(eta.remaining(at + 60) >= 57);
        QVERIFY(eta.remaining(at + 60) > 2 * 79);
        QVERIFY(humanEta(eta.remaining(at + 60)) != humanEta(eta.remaining(at + 20)));
        // Progress again at the old rate: the estimate comes back down within half a minute.
        const double stalled = eta.remaining(at + 60);
        double t = at + 63;
        for (int pct = 24; pct <= 60; pct += 3, t += 3)
            eta.progress(pct, t);
        QVERIFY2(eta.remaining(t) < stalled / 4, qPrintable(QString::number(eta.remaining(t))));
    }

    void theLastStepLateStillGrows() {
        // 10 units left in one last report that is late: 0 s would freeze; it grows instead.
        EtaEstimator eta;
        eta.start(100, 0);
        for (int u = 10; u <= 90; u += 10)
            eta.progress(u, u);
        QCOMPARE(qRound(eta.remaining(95)), 5);
        QCOMPARE(qRound(eta.remaining(100)), 0);
        QVERIFY(eta.remaining(110) >= 10);
        QVERIFY(eta.remaining(130) >= 30);
    }

    void slowingPromptChunksAreFollowed() {
        // Prompt reading: 16 chunks of 512 tokens, each 0.5 s slower than the one before
        // (attention grows with depth): 2 s, 2.5 s, ... The truth after chunk 8 is the sum of
        // chunks 9..16 = 8 × 2 + 0.5 × (8 + ... + 15) = 62 s. The engine's whole-prompt
        // average says 30 s / 8 chunks × 8 = 30 s; the smoothed rate must say over 10% more.
        EtaEstimator eta;
        eta.start(16 * 512, 0);
        double t = 0;
        for (int k = 0; k < 8; ++k) {
            t += 2.0 + 0.5 * k;
            eta.progress((k + 1) * 512, t);
        }
        const double left = eta.remaining(t);
        qInfo("after 8 of 16 chunks: %.1f s left (truth 62 s, average %.0f s)", left, t);
        QVERIFY(left > 33);
        QVERIFY(left <= 62);
    }

    void theTotalCanGrow() {
        // A summary's later stages become known: the total grows, the rate stays.
        EtaEstimator eta;
        eta.start(100, 0);
        for (int u = 10; u <= 50; u += 10)
            eta.progress(u, u / 10.0);
        QCOMPARE(qRound(eta.remaining(5)), 5);
        eta.setTotal(150);
        QCOMPARE(qRound(eta.remaining(5)), 10);
        eta.setTotal(10); // never below what is done
        QCOMPARE(eta.total(), 50.0);
    }
};

QTEST_MAIN(TestEta)
#include "test_eta.moc"
