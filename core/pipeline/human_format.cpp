#include "core/pipeline/human_format.h"

#include <QCoreApplication>

#include <cmath>

namespace folio::ui {

namespace {

// Gives the strings below the translation context "HumanFormat" (lupdate reads HumanFormat::tr).
struct HumanFormat {
    Q_DECLARE_TR_FUNCTIONS(HumanFormat)
};

} // namespace

QString humanDuration(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0)
        return QStringLiteral("—");
    constexpr qint64 kMinute = 60, kHour = 3600;
    const qint64 whole = std::llround(seconds);
    if (whole < kMinute)
        return HumanFormat::tr("%L1 s").arg(whole);
    if (whole < 10 * kMinute) {
        const qint64 s = whole % kMinute;
        return s == 0 ? HumanFormat::tr("%L1 min").arg(whole / kMinute)
                      : HumanFormat::tr("%L1 min %L2 s").arg(whole / kMinute).arg(s);
    }
    const qint64 minutes = std::llround(seconds / kMinute);
    if (minutes < 60)
        return HumanFormat::tr("%L1 min").arg(minutes);
    if (minutes < 48 * 60) {
        const qint64 m = minutes % 60;
        return m == 0 ? HumanFormat::tr("%L1 h").arg(minutes / 60)
                      : HumanFormat::tr("%L1 h %L2 min").arg(minutes / 60).arg(m);
    }
    const qint64 hours = std::llround(seconds / kHour);
    const qint64 h = hours % 24;
    return h == 0 ? HumanFormat::tr("%L1 d").arg(hours / 24)
                  : HumanFormat::tr("%L1 d %L2 h").arg(hours / 24).arg(h);
}

QString humanEta(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0)
        return HumanFormat::tr("unknown");
    if (seconds < 0.5)
        return HumanFormat::tr("under a second");
    return HumanFormat::tr("about %1").arg(humanDuration(seconds));
}

} // namespace folio::ui
