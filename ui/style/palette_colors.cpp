#include "style/palette_colors.h"

#include <QEvent>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <cmath>

namespace folio::ui::style {

namespace {

double channel(double c) {
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

QColor hue(const QPalette& palette, Tone tone) {
    switch (tone) {
    case Tone::Accent:
        return palette.color(QPalette::Link);
    case Tone::Positive:
        return QColor(0x1b, 0x7a, 0x3d);
    case Tone::Warning:
        return QColor(0xb5, 0x8a, 0x00);
    case Tone::Negative:
        return QColor(0xc0, 0x39, 0x2b);
    }
    return palette.color(QPalette::Text);
}

QColor base(const QPalette& palette) {
    return palette.color(QPalette::Base);
}

// Reacts to the application palette changing (a system theme switch), once per burst.
class PaletteFollower : public QObject {
public:
    PaletteFollower(QWidget* widget, std::function<void()> apply)
        : QObject(widget), apply_(std::move(apply)) {
        widget->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if ((event->type() == QEvent::ApplicationPaletteChange ||
             event->type() == QEvent::PaletteChange) &&
            !pending_ && watched == parent()) {
            pending_ = true;
            // The widget resolves its new palette after this filter: apply once it has.
            QTimer::singleShot(0, this, [this] {
                pending_ = false;
                apply_();
            });
        }
        return false;
    }

private:
    std::function<void()> apply_;
    bool pending_ = false;
};

} // namespace

double luminance(const QColor& colour) {
    const QColor c = colour.toRgb();
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

bool isDark(const QPalette& palette) {
    return luminance(palette.color(QPalette::Base)) < luminance(palette.color(QPalette::Text));
}

QColor mix(const QColor& a, const QColor& b, double t) {
    const QColor x = a.toRgb();
    const QColor y = b.toRgb();
    return QColor::fromRgbF(float(x.redF() + (y.redF() - x.redF()) * t),
                            float(x.greenF() + (y.greenF() - x.greenF()) * t),
                            float(x.blueF() + (y.blueF() - x.blueF()) * t));
}

QColor readable(const QColor& colour, const QColor& background, double ratio) {
    const QColor target = luminance(background) < 0.18 ? QColor(Qt::white) : QColor(Qt::black);
    QColor c = colour.toRgb();
    for (int step = 1; step <= 20 && contrastRatio(c, background) < ratio; ++step)
        c = mix(colour, target, step / 20.0);
    return c;
}

QColor link(const QPalette& palette) {
    return readable(palette.color(QPalette::Link), base(palette));
}

QColor toneText(const QPalette& palette, Tone tone) {
    return readable(hue(palette, tone), base(palette));
}

QColor toneBackground(const QPalette& palette, Tone tone) {
    return mix(base(palette), hue(palette, tone), isDark(palette) ? 0.30 : 0.14);
}

QColor toneBorder(const QPalette& palette, Tone tone) {
    return mix(base(palette), hue(palette, tone), isDark(palette) ? 0.65 : 0.45);
}

QColor mutedText(const QPalette& palette) {
    return readable(mix(palette.color(QPalette::Text), base(palette), 0.45), base(palette), 3.0);
}

QColor codeBackground(const QPalette& palette) {
    return mix(base(palette), palette.color(QPalette::Text), isDark(palette) ? 0.10 : 0.05);
}

QString labelStyle(const QPalette& palette, Tone tone, int radius, const QString& padding) {
    const QColor background = toneBackground(palette, tone);
    return QStringLiteral("QLabel { background: %1; color: %2; border: 1px solid %3; "
                          "border-radius: %4px; padding: %5; }")
        .arg(css(background), css(readable(palette.color(QPalette::Text), background)),
             css(toneBorder(palette, tone)))
        .arg(radius)
        .arg(padding);
}

QColor placeholderText(const QPalette& palette) {
    const QColor base = palette.color(QPalette::Base);
    return readable(mix(palette.color(QPalette::Text), base, 0.5), base, 3.0);
}

void followPalette(QWidget* widget, std::function<void()> apply) {
    apply();
    new PaletteFollower(widget, std::move(apply));
}

} // namespace folio::ui::style
