#pragma once
// Where a loaded model's weights live (folio/engine.h WeightsMemory): a private copy in RAM with
// 2 MiB pages when that pays and fits, else the file's mapping read through once.
//
// Decode reads every active weight once per token. From the file's 4 KiB pages the hardware
// prefetchers stop at every page boundary and each page needs its own TLB walk; the same bytes
// in transparent huge pages decode 1.01-1.05x faster on the bench files (two loads of one file
// in one process, tg32 alternating 20-40 times, ratio medians; issue #24). A copy also cannot
// be dropped by the system under memory pressure (a mapped page evicted mid-answer is read from
// disk again) nor changed by another program rewriting the file. It costs the file's size in
// RAM that the system cannot reclaim, so Auto makes it only when the machine has at least twice
// that available and the kernel gives huge pages to programs that ask (transparent_hugepage
// "always" or "madvise").

#include "folio/engine.h"
#include "folio/error.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace folio {

namespace gguf {
class File;
}

// The bracketed word of /sys/kernel/mm/transparent_hugepage/enabled ("always", "madvise" or
// "never"); "" where the file does not exist (not Linux, or a kernel without THP).
std::string transparent_huge_pages_mode();
// The same from the file's text, e.g. "always [madvise] never" -> "madvise" (for tests).
std::string transparent_huge_pages_mode_in(std::string_view text);

// Whether WeightsMemory::Auto copies a file of `file_bytes` into RAM.
bool should_copy_weights(uint64_t file_bytes, uint64_t available_ram, std::string_view thp_mode);

// Copies the file's weights into RAM (gguf::File::copy_into_memory) when `mode` and the machine
// allow, else reads every page of the mapping once so the first answer does not stall on page
// faults. progress(0..1) follows either pass; false when cancelled() stopped it. A copy that
// fails (out of memory) falls back to the mapping: the model still runs.
bool settle_weights(gguf::File& file, WeightsMemory mode,
                    const std::function<void(double)>& progress,
                    const std::function<bool()>& cancelled);

} // namespace folio
