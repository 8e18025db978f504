#pragma once
// Prefill and decode tokens per second over time (the last two minutes), as a QtCharts line
// chart: each series is drawn as segments, a new one after every idle gap (no line across the
// gap, no zero drop); the axes tick at 1, 2 or 5 × 10^k; hovering a point shows its value. The
// same samples are kept in a table model (time, prefill, decode) for the pane's table view.

#include <QChartView>

#include <vector>

class QLineSeries;
class QStandardItemModel;
class QValueAxis;

namespace folio::ui {

class ThroughputChart : public QChartView {
    Q_OBJECT
public:
    explicit ThroughputChart(QWidget* parent = nullptr);

    // A sample at `seconds` since the pane started; a negative rate leaves that series alone.
    // A `...Break` starts a new segment of that series (idle time before this point).
    void addSample(double seconds, double prefillTps, double decodeTps, bool prefillBreak = false,
                   bool decodeBreak = false);
    int prefillPoints() const;
    int decodePoints() const;
    // Line segments holding points (a series broken over one gap has two).
    int prefillSegments() const;
    // The axes (tests): the rate axes' maxima and tick steps.
    QValueAxis* decodeAxis() const { return axisY_; }
    QValueAxis* prefillAxis() const { return axisY2_; }
    QValueAxis* timeAxis() const { return axisX_; }
    // Time (s), prefill t/s, decode t/s per sample in the window (empty cell: no figure).
    QStandardItemModel* tableModel() const { return table_; }
    // "12.3 s · prefill 104 t/s" for a point of either series.
    static QString pointText(const QPointF& point, bool prefill);

private:
    QLineSeries* newSegment(bool prefill);
    void applyPalette();
    void trim(double now);
    void rescale(double now);
    static int countPoints(const std::vector<QLineSeries*>& segments);
    static int countSegments(const std::vector<QLineSeries*>& segments);

    std::vector<QLineSeries*> prefill_, decode_; // segments, oldest first
    QValueAxis* axisX_ = nullptr;
    QValueAxis* axisY_ = nullptr;
    QValueAxis* axisY2_ = nullptr;
    QStandardItemModel* table_ = nullptr;
};

} // namespace folio::ui
