#pragma once
// Internal: the steps of a decode region's threads (kernels/decode_team.h) and how they fail.
// A thread whose step fails (a Status, or a throw kept by RegionErrors) skips the rest of its
// work but still meets every barrier, and so do the other threads once they see the shared
// flag: no thread then reads what a failed step did not write. The region's opener reads the
// statuses and rethrows after the join.

#include "core/region_errors.h"
#include "folio/error.h"

#include <atomic>

namespace folio {

class TeamSteps {
public:
    RegionErrors errors;

    // Whether this thread (its status st) and the team are still going.
    bool ok(const Status& st) const {
        return st.has_value() && !failed_.load(std::memory_order_relaxed) && !errors.failed();
    }
    // st = fn() when ok(st); a failure is flagged to the team.
    template <typename Fn> void run(Status& st, Fn&& fn) {
        if (!ok(st))
            return;
        errors.run([&] { st = fn(); });
        if (!st.has_value())
            failed_.store(true, std::memory_order_relaxed);
    }

private:
    std::atomic<bool> failed_{false};
};

} // namespace folio
