#include "runtime/mapped_residency.h"

#include "core/text_file.h"

#include <filesystem>

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

// The number of a "Key:   value kB" line, in bytes.
uint64_t field_bytes(std::string_view line) {
    uint64_t kib = 0;
    for (char c : line.substr(line.find(':') + 1)) {
        if (c >= '0' && c <= '9')
            kib = kib * 10 + static_cast<uint64_t>(c - '0');
        else if (kib > 0)
            break;
    }
    return kib * 1024;
}

// The address range "start-end" of a header line.
bool header_range(std::string_view line, uintptr_t& begin, uintptr_t& end) {
    const size_t dash = line.find('-'), space = line.find(' ');
    if (dash == std::string_view::npos || space == std::string_view::npos || dash > space)
        return false;
    begin = std::stoull(std::string(line.substr(0, dash)), nullptr, 16);
    end = std::stoull(std::string(line.substr(dash + 1, space - dash - 1)), nullptr, 16);
    return true;
}

// The sum of field `key` ("Rss:", ...) over the mappings whose header line `chosen` accepts.
template <typename Choose>
uint64_t sum_field(std::string_view smaps, std::string_view key, const Choose& chosen) {
    uint64_t total = 0;
    bool inside = false;
    size_t start = 0;
    while (start < smaps.size()) {
        size_t end = smaps.find('\n', start);
        if (end == std::string_view::npos)
            end = smaps.size();
        const std::string_view line = smaps.substr(start, end - start);
        start = end + 1;
        if (is_header(line))
            inside = chosen(line);
        else if (inside && line.substr(0, key.size()) == key)
            total += field_bytes(line);
    }
    return total;
}

} // namespace

uint64_t huge_page_bytes_in(std::string_view smaps, const void* begin, uint64_t size) {
    const auto lo = reinterpret_cast<uintptr_t>(begin), hi = lo + size;
    return sum_field(smaps, "AnonHugePages:", [&](std::string_view header) {
        uintptr_t b = 0, e = 0;
        return header_range(header, b, e) && b < hi && e > lo;
    });
}

uint64_t huge_page_bytes(const void* begin, uint64_t size) {
    return huge_page_bytes_in(read_text_file("/proc/self/smaps"), begin, size);
}

uint64_t mapped_resident_bytes_in(std::string_view smaps, std::string_view path) {
    return sum_field(smaps,
                     "Rss:", [&](std::string_view header) { return header_path(header) == path; });
}

uint64_t mapped_resident_bytes(const std::string& path) {
    if (path.empty())
        return 0;
    std::error_code ec;
    const std::filesystem::path canonical = std::filesystem::canonical(path, ec);
    if (ec)
        return 0;
    return mapped_resident_bytes_in(read_text_file("/proc/self/smaps"), canonical.string());
}

} // namespace folio
