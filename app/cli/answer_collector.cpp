#include "cli/answer_collector.h"

#include <cstdio>

namespace folio::cli {

void AnswerCollector::attach(RequestCallbacks& cb, bool ids_only) {
    cb.on_token = [this, ids_only](std::string_view text, int32_t id) {
        std::lock_guard lk(mu);
        if (id >= 0)
            ids.push_back(id);
        if (!ids_only && !text.empty()) {
            std::fwrite(text.data(), 1, text.size(), stdout);
            std::fflush(stdout);
        }
    };
    cb.on_done = [this](const RequestStats& st) {
        std::lock_guard lk(mu);
        stats = st;
    };
    cb.on_error = [this](const Error& e) {
        std::lock_guard lk(mu);
        error = e.to_string();
    };
}

void AnswerCollector::print_ids() const {
    for (size_t i = 0; i < ids.size(); ++i)
        std::printf("%s%d", i ? "," : "", ids[i]);
}

} // namespace folio::cli
