#include "core/figures/figures_json.h"

#include <nlohmann/json.hpp>

namespace folio::figures {

std::string figures_json(const std::vector<FigureResult>& results) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const FigureResult& r : results) {
        nlohmann::ordered_json row;
        row["figure"] = r.figure;
        row["doc"] = r.document >= 0 ? nlohmann::ordered_json(r.document + 1)
                                     : nlohmann::ordered_json(nullptr);
        row["page"] = r.page > 0 ? nlohmann::ordered_json(r.page) : nlohmann::ordered_json(nullptr);
        row["state"] = state_name(r.state);
        row["found_page"] = r.found_page > 0 ? nlohmann::ordered_json(r.found_page)
                                             : nlohmann::ordered_json(nullptr);
        row["line"] =
            r.line.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.line);
        out.push_back(std::move(row));
    }
    // Invalid UTF-8 in a page's text is replaced, never an exception.
    return out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

} // namespace folio::figures
