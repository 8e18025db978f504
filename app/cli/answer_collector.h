#pragma once
// What `generate` prints of a streamed request (embedded engine or remote server): the answer's
// text goes to stdout as it arrives (unless only the ids are wanted), the ids, the final stats
// and an error are kept for after wait(). Callbacks run on the backend's thread.

#include "folio/engine.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace folio::cli {

struct AnswerCollector {
    std::mutex mu;
    std::vector<int32_t> ids;
    RequestStats stats;
    std::string error;

    void attach(RequestCallbacks& callbacks, bool ids_only);
    // "id,id,id" on stdout (no newline).
    void print_ids() const;
};

} // namespace folio::cli
