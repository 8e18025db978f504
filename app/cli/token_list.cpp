#include "cli/token_list.h"

#include <cerrno>
#include <cstdlib>

namespace folio::cli {

std::optional<std::vector<int32_t>> parse_token_list(const std::string& text, std::string* error) {
    std::vector<int32_t> ids;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t comma = text.find(',', pos);
        if (comma == std::string::npos)
            comma = text.size();
        std::string item = text.substr(pos, comma - pos);
        while (!item.empty() && item.front() == ' ')
            item.erase(item.begin());
        while (!item.empty() && item.back() == ' ')
            item.pop_back();
        errno = 0;
        char* end = nullptr;
        long v = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || errno == ERANGE || v < 0 || v > INT32_MAX) {
            *error = "bad token id '" + item + "' in --tokens";
            return std::nullopt;
        }
        ids.push_back(static_cast<int32_t>(v));
        pos = comma + 1;
    }
    if (ids.empty()) {
        *error = "--tokens is empty";
        return std::nullopt;
    }
    return ids;
}

} // namespace folio::cli
