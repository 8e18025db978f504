#include "runtime/weights_memory.h"

#include "core/text_file.h"
#include "folio/system_info.h"
#include "gguf/gguf_file.h"

#include <algorithm>

namespace folio {

namespace {

// Reads one byte per 4 KiB page of every tensor, reporting every 64 MiB.
bool read_through(const gguf::File& file, const std::function<void(double)>& progress,
                  const std::function<bool()>& cancelled) {
    constexpr uint64_t kPage = 4096, kReport = 64ull << 20;
    uint64_t total = 0, done = 0, next_report = kReport;
    for (const auto& t : file.tensors())
        total += t.size_bytes;
    volatile uint8_t sink = 0;
    for (const auto& t : file.tensors()) {
        const uint8_t* p = t.data;
        for (uint64_t off = 0; off < t.size_bytes; off += kPage) {
            sink = sink + p[off];
            if ((done += std::min(kPage, t.size_bytes - off)) >= next_report) {
                next_report += kReport;
                if (cancelled && cancelled())
                    return false;
                if (progress)
                    progress(total ? double(done) / double(total) : 1.0);
            }
        }
    }
    (void)sink;
    return true;
}

} // namespace

std::string transparent_huge_pages_mode_in(std::string_view text) {
    const size_t open = text.find('['), close = text.find(']', open);
    if (open == std::string_view::npos || close == std::string_view::npos)
        return {};
    return std::string(text.substr(open + 1, close - open - 1));
}

std::string transparent_huge_pages_mode() {
    return transparent_huge_pages_mode_in(
        read_text_file("/sys/kernel/mm/transparent_hugepage/enabled"));
}

bool should_copy_weights(uint64_t file_bytes, uint64_t available_ram, std::string_view thp_mode) {
    if (thp_mode != "always" && thp_mode != "madvise")
        return false; // 4 KiB pages either way: the copy would only cost RAM
    return file_bytes > 0 && file_bytes <= available_ram / 2;
}

bool copy_fits(uint64_t file_bytes, uint64_t available_ram) {
    constexpr uint64_t kSpare = uint64_t{1} << 30;
    return file_bytes > 0 && file_bytes + kSpare <= available_ram;
}

bool settle_weights(gguf::File& file, WeightsMemory mode,
                    const std::function<void(double)>& progress,
                    const std::function<bool()>& cancelled) {
    const uint64_t available =
        mode == WeightsMemory::Mapped ? 0 : query_system_info().available_ram_bytes;
    if ((mode == WeightsMemory::Ram && copy_fits(file.file_size(), available)) ||
        (mode == WeightsMemory::Auto &&
         should_copy_weights(file.file_size(), available, transparent_huge_pages_mode()))) {
        auto copied = file.copy_into_memory(progress, cancelled);
        if (copied && !*copied)
            return false; // cancelled
        // An error (no memory for the copy): the mapping is unchanged, read it through.
    }
    if (!file.in_memory() && !read_through(file, progress, cancelled))
        return false;
    if (progress)
        progress(1.0);
    return true;
}

} // namespace folio
