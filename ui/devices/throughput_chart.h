#pragma once
// Prefill and decode tokens per second over time (the last two minutes), as a QtCharts line
// chart.

#include <QChartView>

class QLineSeries;
class QValueAxis;

namespace folio::ui {

class ThroughputChart : public QChartView {
    Q_OBJECT
public:
    explicit ThroughputChart(QWidget* parent = nullptr);

    // A sample at `seconds` since the pane started; a negative rate leaves that series alone.
    void addSample(double seconds, double prefillTps, double decodeTps);
    int prefillPoints() const;
    int decodePoints() const;

private:
    void trim(QLineSeries* series, double now);

    QLineSeries* prefill_ = nullptr;
    QLineSeries* decode_ = nullptr;
    QValueAxis* axisX_ = nullptr;
    QValueAxis* axisY_ = nullptr;
    QValueAxis* axisY2_ = nullptr;
};

} // namespace folio::ui
