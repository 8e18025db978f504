#pragma once
// Prefetch for the kernels that read rows given by pointers (attention over cached rows in place,
// kernels/mqa_rows.h): the rows lie anywhere in a cache far larger than the CPU caches, so a
// kernel asks for a later batch's lines a slice at a time while it computes, so that they do not
// all wait for the few line-fill buffers at once.
//
// Included by kernels compiled for different instruction sets: static (a copy per file, never
// one the linker could pick for another file; see decode_prefetch.h), baseline instructions only.

#include <cstdint>

namespace folio {

// Cache lines [first, last) of rows[0 ..), counted row after row, lines_per_row each, into L1.
// One division per call, none per line (a 64-bit division per line was the hottest part of the
// AVX2 attention kernel's profile at depth 8192).
static inline void prefetch_row_lines(const float* const* rows, int64_t lines_per_row,
                                      int64_t first, int64_t last) {
    if (first >= last)
        return;
    int64_t row = first / lines_per_row, line = first % lines_per_row;
    for (int64_t i = first; i < last; ++i) {
        __builtin_prefetch(reinterpret_cast<const char*>(rows[row]) + line * 64, 0, 3);
        if (++line == lines_per_row) {
            line = 0;
            ++row;
        }
    }
}

} // namespace folio
