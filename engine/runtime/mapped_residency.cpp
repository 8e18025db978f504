#include "runtime/mapped_residency.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace folio {

namespace {

// A mapping's header line: "start-end perms offset dev inode   pathname"; its fields follow as
// "Key:   value kB" lines whose keys start with a capital letter.
bool is_header(std::string_view line) {
    return !line.empty() &&
           ((line[0] >= '0' && line[0] <= '9') || (line[0] >= 'a' && line[0] <= 'f'));
}

// The pathname of a header line: what follows the fifth field (may contain spaces).
std::string_view header_path(std::string_view line) {
    size_t pos = 0;
    for (int field = 0; field < 5; ++field) {
        pos = line.find_first_not_of(' ', pos);
        if (pos == std::string_view::npos)
            return {};
        pos = line.find(' ', pos);
        if (pos == std::string_view::npos)
            return {};
    }
    pos = line.find_first_not_of(' ', pos);
    return pos == std::string_view::npos ? std::string_view{} : line.substr(pos);
}

} // namespace

uint64_t mapped_resident_bytes_in(std::string_view smaps, std::string_view path) {
    uint64_t total = 0;
    bool inside = false;
    size_t start = 0;
    while (start < smaps.size()) {
        size_t end = smaps.find('\n', start);
        if (end == std::string_view::npos)
            end = smaps.size();
        const std::string_view line = smaps.substr(start, end - start);
        start = end + 1;
        if (is_header(line)) {
            inside = header_path(line) == path;
        } else if (inside && line.substr(0, 4) == "Rss:") {
            uint64_t kib = 0;
            for (char c : line.substr(4)) {
                if (c >= '0' && c <= '9')
                    kib = kib * 10 + static_cast<uint64_t>(c - '0');
                else if (kib > 0)
                    break;
            }
            total += kib * 1024;
        }
    }
    return total;
}

uint64_t mapped_resident_bytes(const std::string& path) {
    if (path.empty())
        return 0;
    std::error_code ec;
    const std::filesystem::path canonical = std::filesystem::canonical(path, ec);
    if (ec)
        return 0;
    std::ifstream in("/proc/self/smaps");
    if (!in)
        return 0;
    std::ostringstream text;
    text << in.rdbuf();
    return mapped_resident_bytes_in(text.str(), canonical.string());
}

} // namespace folio
