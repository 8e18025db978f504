#include "devices/throughput_chart.h"

#include "devices/throughput_rates.h"
#include "style/palette_colors.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QStandardItemModel>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>

namespace folio::ui {

namespace {
constexpr double kWindowSeconds = 120;
const QColor kPrefillColor(0x4a, 0x78, 0xc2);
const QColor kDecodeColor(0x3d, 0xa5, 0x5d);

void setTicks(QValueAxis* axis, const NiceAxis& nice) {
    axis->setRange(0, nice.max);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(nice.step);
    axis->setLabelFormat(nice.step >= 1 ? QStringLiteral("%.0f") : QStringLiteral("%.1f"));
}
} // namespace

ThroughputChart::ThroughputChart(QWidget* parent) : QChartView(parent) {
    auto* chart = new QChart;
    axisX_ = new QValueAxis(chart);
    axisX_->setLabelFormat(QStringLiteral("%.0f s"));
    axisY_ = new QValueAxis(chart);
    axisY2_ = new QValueAxis(chart);
    chart->addAxis(axisX_, Qt::AlignBottom);
    chart->addAxis(axisY_, Qt::AlignLeft);
    chart->addAxis(axisY2_, Qt::AlignRight);
    setTicks(axisY_, niceAxis(50));
    setTicks(axisY2_, niceAxis(500));
    axisX_->setRange(0, 60);
    axisX_->setTickType(QValueAxis::TicksDynamic);
    axisX_->setTickAnchor(0);
    axisX_->setTickInterval(niceAxis(60).step);
    chart->legend()->setAlignment(Qt::AlignTop);
    chart->setMargins(QMargins(2, 2, 2, 2));
    setChart(chart);
    newSegment(false);
    newSegment(true);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(170);
    // The chart's own light theme would sit white on a dark window: palette colours instead.
    style::followPalette(this, [this] { applyPalette(); });
    setAccessibleName(tr("Throughput chart"));
    setAccessibleDescription(tr("Prefill (right axis) and decode (left axis) tokens per second "
                                "over the last two minutes; the table view lists the same "
                                "figures."));

    table_ = new QStandardItemModel(0, 3, this);
    table_->setHorizontalHeaderLabels({tr("Time (s)"), tr("Prefill t/s"), tr("Decode t/s")});
}

void ThroughputChart::applyPalette() {
    const QPalette& p = palette();
    QChart* c = chart();
    c->setBackgroundBrush(p.brush(QPalette::Base));
    c->setBackgroundPen(QPen(p.color(QPalette::Mid)));
    c->setPlotAreaBackgroundVisible(false);
    c->legend()->setLabelColor(p.color(QPalette::Text));
    for (QValueAxis* axis : {axisX_, axisY_, axisY2_}) {
        axis->setLabelsColor(p.color(QPalette::Text));
        axis->setLinePenColor(style::mutedText(p));
        axis->setGridLineColor(style::mix(p.color(QPalette::Base), p.color(QPalette::Text), 0.18));
        axis->setMinorGridLineColor(
            style::mix(p.color(QPalette::Base), p.color(QPalette::Text), 0.08));
    }
}

QString ThroughputChart::pointText(const QPointF& point, bool prefill) {
    return (prefill ? tr("%1 s · prefill %L2 t/s") : tr("%1 s · decode %L2 t/s"))
        .arg(point.x(), 0, 'f', 1)
        .arg(point.y(), 0, 'f', point.y() < 10 ? 1 : 0);
}

QLineSeries* ThroughputChart::newSegment(bool prefill) {
    std::vector<QLineSeries*>& segments = prefill ? prefill_ : decode_;
    auto* series = new QLineSeries(chart());
    series->setColor(prefill ? kPrefillColor : kDecodeColor);
    // Short answers give a sample or two: draw the points, not only the lines between them.
    series->setPointsVisible(true);
    chart()->addSeries(series);
    series->attachAxis(axisX_);
    series->attachAxis(prefill ? axisY2_ : axisY_);
    // One legend entry per series, not per segment.
    if (segments.empty())
        series->setName(prefill ? tr("prefill t/s (right)") : tr("decode t/s (left)"));
    else
        for (QLegendMarker* marker : chart()->legend()->markers(series))
            marker->setVisible(false);
    connect(series, &QLineSeries::hovered, this, [this, prefill](const QPointF& p, bool state) {
        if (state)
            QToolTip::showText(QCursor::pos(), pointText(p, prefill), this);
        else
            QToolTip::hideText();
    });
    segments.push_back(series);
    return series;
}

void ThroughputChart::addSample(double seconds, double prefillTps, double decodeTps,
                                bool prefillBreak, bool decodeBreak) {
    if (prefillTps >= 0) {
        QLineSeries* s = prefill_.back();
        if (prefillBreak && s->count() > 0)
            s = newSegment(true);
        s->append(seconds, prefillTps);
    }
    if (decodeTps >= 0) {
        QLineSeries* s = decode_.back();
        if (decodeBreak && s->count() > 0)
            s = newSegment(false);
        s->append(seconds, decodeTps);
    }
    if (prefillTps >= 0 || decodeTps >= 0) {
        const QLocale locale;
        auto cell = [&](double v) {
            auto* item =
                new QStandardItem(v >= 0 ? locale.toString(v, 'f', v < 10 ? 1 : 0) : QString());
            item->setData(v >= 0 ? QVariant(v) : QVariant(), Qt::UserRole);
            return item;
        };
        auto* time = new QStandardItem(locale.toString(seconds, 'f', 1));
        time->setData(seconds, Qt::UserRole);
        table_->appendRow({time, cell(prefillTps), cell(decodeTps)});
    }
    trim(seconds);
    rescale(seconds);
}

void ThroughputChart::trim(double now) {
    const double from = now - kWindowSeconds;
    for (std::vector<QLineSeries*>* segments : {&prefill_, &decode_}) {
        for (QLineSeries* s : *segments)
            while (s->count() > 0 && s->at(0).x() < from)
                s->remove(0);
        // Drop emptied old segments; the newest stays for the next points. The first kept
        // one carries the legend entry.
        while (segments->size() > 1 && segments->front()->count() == 0) {
            const QString name = segments->front()->name();
            chart()->removeSeries(segments->front());
            delete segments->front();
            segments->erase(segments->begin());
            segments->front()->setName(name);
            for (QLegendMarker* marker : chart()->legend()->markers(segments->front()))
                marker->setVisible(true);
        }
    }
    while (table_->rowCount() > 0 && table_->item(0, 0)->data(Qt::UserRole).toDouble() < from)
        table_->removeRow(0);
}

void ThroughputChart::rescale(double now) {
    auto peak = [](const std::vector<QLineSeries*>& segments) {
        double m = 0;
        for (const QLineSeries* s : segments)
            for (const QPointF& p : s->points())
                m = std::max(m, p.y());
        return m;
    };
    // The axes follow what is in the window (a spike that scrolled out no longer squeezes the
    // rest), with a little headroom, at least 0-50 and 0-500.
    setTicks(axisY_, niceAxis(std::max(50.0, peak(decode_) * 1.1)));
    setTicks(axisY2_, niceAxis(std::max(500.0, peak(prefill_) * 1.1)));
    const double from = std::max(0.0, now - kWindowSeconds);
    const double to = std::max(60.0, now);
    axisX_->setRange(from, to);
    axisX_->setTickInterval(niceAxis(to - from).step);
}

int ThroughputChart::countPoints(const std::vector<QLineSeries*>& segments) {
    int n = 0;
    for (const QLineSeries* s : segments)
        n += int(s->count());
    return n;
}

int ThroughputChart::countSegments(const std::vector<QLineSeries*>& segments) {
    int n = 0;
    for (const QLineSeries* s : segments)
        n += s->count() > 0 ? 1 : 0;
    return n;
}

int ThroughputChart::prefillPoints() const {
    return countPoints(prefill_);
}

int ThroughputChart::decodePoints() const {
    return countPoints(decode_);
}

int ThroughputChart::prefillSegments() const {
    return countSegments(prefill_);
}

} // namespace folio::ui
