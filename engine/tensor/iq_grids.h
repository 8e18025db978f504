#pragma once
// Codebooks of the grid i-quants: data of ggml's file format (ggml/src/ggml-common.h), generated
// into tensor/iq_grids_iq{1,2,3}.cpp by tools/iq_grids/gen_iq_grids.py. Each uint64 entry holds
// the 8 byte values of one group of 8 weights (byte j = value j), each uint32 entry 4 values.
//   IQ2 grids: magnitudes from {8, 25, 43}; IQ3 grids: from {4, 12, ..., 62};
//   kIq1sGrid: signed bytes from {-1, 0, 1}.
// kIqSigns[c] expands a 7-bit sign code c to 8 sign bits: c plus an eighth bit that makes the
// count of negative values even.
//
// Declarations only (no functions): *_avx2.cpp files include it.

#include <cstdint>

namespace folio {

extern const uint8_t kIqSigns[128];
extern const uint64_t kIq2xxsGrid[256];
extern const uint64_t kIq2xsGrid[512];
extern const uint64_t kIq2sGrid[1024];
extern const uint32_t kIq3xxsGrid[256];
extern const uint32_t kIq3sGrid[512];
extern const uint64_t kIq1sGrid[2048];

// IQ1_S / IQ1_M: every value of a group is shifted by ±kIq1Delta (ggml IQ1S_DELTA, IQ1M_DELTA).
inline constexpr float kIq1Delta = 0.125f;

} // namespace folio
