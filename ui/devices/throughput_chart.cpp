#include "devices/throughput_chart.h"

#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>

namespace folio::ui {

namespace {
constexpr double kWindowSeconds = 120;
}

ThroughputChart::ThroughputChart(QWidget* parent) : QChartView(parent) {
    auto* chart = new QChart;
    prefill_ = new QLineSeries(chart);
    prefill_->setName(tr("prefill t/s (right)"));
    decode_ = new QLineSeries(chart);
    decode_->setName(tr("decode t/s"));
    // Short answers give a sample or two: draw the points, not only the lines between them.
    prefill_->setPointsVisible(true);
    decode_->setPointsVisible(true);
    chart->addSeries(decode_);
    chart->addSeries(prefill_);
    axisX_ = new QValueAxis(chart);
    axisX_->setRange(0, 60);
    axisX_->setLabelFormat(QStringLiteral("%d s"));
    axisY_ = new QValueAxis(chart);
    axisY_->setRange(0, 50);
    axisY_->setLabelFormat(QStringLiteral("%d"));
    axisY2_ = new QValueAxis(chart);
    axisY2_->setRange(0, 500);
    axisY2_->setLabelFormat(QStringLiteral("%d"));
    chart->addAxis(axisX_, Qt::AlignBottom);
    chart->addAxis(axisY_, Qt::AlignLeft);
    chart->addAxis(axisY2_, Qt::AlignRight);
    decode_->attachAxis(axisX_);
    decode_->attachAxis(axisY_);
    prefill_->attachAxis(axisX_);
    prefill_->attachAxis(axisY2_);
    chart->legend()->setAlignment(Qt::AlignTop);
    chart->setMargins(QMargins(2, 2, 2, 2));
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(170);
}

void ThroughputChart::trim(QLineSeries* series, double now) {
    while (series->count() > 0 && series->at(0).x() < now - kWindowSeconds)
        series->remove(0);
}

void ThroughputChart::addSample(double seconds, double prefillTps, double decodeTps) {
    if (prefillTps >= 0) {
        prefill_->append(seconds, prefillTps);
        axisY2_->setMax(qMax(axisY2_->max(), prefillTps * 1.2));
    }
    if (decodeTps >= 0) {
        decode_->append(seconds, decodeTps);
        axisY_->setMax(qMax(axisY_->max(), decodeTps * 1.2));
    }
    trim(prefill_, seconds);
    trim(decode_, seconds);
    axisX_->setRange(qMax(0.0, seconds - kWindowSeconds), qMax(60.0, seconds));
}

int ThroughputChart::prefillPoints() const {
    return int(prefill_->count());
}

int ThroughputChart::decodePoints() const {
    return int(decode_->count());
}

} // namespace folio::ui
