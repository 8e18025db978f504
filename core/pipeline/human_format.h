#pragma once
// Durations and estimates for people: "5 s", "1 min 30 s", "42 min", "1 h 20 min", "2 d 3 h"
// instead of "2541.3 s". Precision shrinks as the duration grows (a 40-minute estimate is not
// good to the second); every string goes through tr() (context "HumanFormat").

#include <QString>

namespace folio::ui {

// A measured or planned duration: under 10 min to the second, under an hour to the minute,
// under two days in hours and minutes, then in days and hours. Negative or not finite: "—".
QString humanDuration(double seconds);

// An estimate of time left: "about 5 s", "about 42 min", "about 1 h 20 min"; under half a
// second "under a second"; negative or not finite (no estimate yet) "unknown".
QString humanEta(double seconds);

} // namespace folio::ui
