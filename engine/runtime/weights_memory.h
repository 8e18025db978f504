#pragma once
// Where a loaded model's weights live (folio/engine.h WeightsMemory): the file's mapping read
// through once, or a private copy in RAM with 2 MiB pages.
//
// Decode reads every active weight once per token. From the file's 4 KiB pages the hardware
// prefetchers stop at every page boundary and each page needs its own TLB walk, so the copy
// in transparent huge pages was expected to decode faster. Measured on the 2-vCPU VMs (issue
// #24: two loads of one file in one process, tg32 alternating 30 times, ratio medians, three
// to seven runs per file over 10 minutes): kimi-linear Q8_0 1.02-1.05x, deepseek2 Q4_K_M
// 0.93-1.06x, Q8_0 0.94-1.05x, MXFP4_MOE 0.95-1.01x; an A/A control of the method 1.02. Not
// a gain to pay the file's size in unreclaimable RAM for, so the copy is asked for (Ram, or
// Auto: only when the machine has twice the file available and the kernel gives huge pages to
// programs that ask, transparent_hugepage "always" or "madvise"), not the default. What a
// copy does give: the system cannot drop its pages under memory pressure (a mapped page
// evicted mid-answer is read from disk again), and another program rewriting the file cannot
// reach it.

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
// Whether WeightsMemory::Ram may copy it: the copy and 1 GiB for everything else must fit in
// the available memory (a copy past it would end in the out-of-memory killer or in swap).
bool copy_fits(uint64_t file_bytes, uint64_t available_ram);

// Copies the file's weights into RAM (gguf::File::copy_into_memory) when `mode` and the machine
// allow, else reads every page of the mapping once so the first answer does not stall on page
// faults. progress(0..1) follows either pass; false when cancelled() stopped it. A copy that
// does not fit or fails (out of memory) falls back to the mapping: the model still runs
// (file.in_memory() tells which).
bool settle_weights(gguf::File& file, WeightsMemory mode,
                    const std::function<void(double)>& progress,
                    const std::function<bool()>& cancelled);

} // namespace folio
