#pragma once
// Internal: the table of row kernels behind the public kernel API. One immutable table per
// implementation (reference scalar, AVX2), chosen at run time from detect_cpu_features().
// Row kernels are single-threaded; the public functions split rows across OpenMP threads.
//
// This header holds declarations only, so the *_avx2.cpp files can include it.

#include "kernels/kernel_context.h"

#include <cstddef>
#include <cstdint>

namespace folio {

// Dot products of one weight row of k elements against nx (1..4) activation rows:
// out[j·out_stride] = Σ_i w[i]·x_j[i], with x_j at byte offset j·x_stride from x. The activation
// rows are in the format the weight type's registry row names (kernels/weight_types.h): f32,
// Q8_0, Q8_1 or Q8_K blocks.
using VecDotFn = void (*)(int64_t k, const void* w_row, const void* x, size_t x_stride, int nx,
                          float* out, int64_t out_stride);
// Dot products of nw (1..kMaxDotRows) weight rows of k elements, w_stride bytes apart, against
// one activation row: out[r] = Σ_i w_r[i]·x[i]. Equal bit for bit to the same type's VecDotFn
// row by row; a decode matvec takes several rows per call so they share the activation loads.
using VecDotRowsFn = void (*)(int64_t k, const void* w_rows, size_t w_stride, int nw, const void* x,
                              float* out);
// f32 row -> blocks (activation or weight format), n a multiple of the block size.
using QuantizeRowFn = void (*)(const float* x, void* dst, int64_t n);

inline constexpr int kMaxDotRows = 4;

// Layout of a Q8_0 activation row as quantize_activations writes it for the matmul kernels
// (nb = k/32 blocks; every area starts at a multiple of 32 bytes from the row start):
//   blocks      nb BlockQ8_0 (ggml's Q8_0 activation blocks; all the reference kernels read)
//   scales      nb floats: fp32(d) of each block (exact copies of the fp16 scales)
//   scales_dup  2·nb floats: each fp32(d) twice (d0 d0 d1 d1 ...)
//   interleaved for each full group of 4 blocks b..b+3, 128 bytes: the low halves
//               x_b[0..15] x_{b+2}[0..15] x_{b+1}[0..15] x_{b+3}[0..15], then the high halves
//               x_b[16..31] x_{b+2}[16..31] x_{b+1}[16..31] x_{b+3}[16..31] — the order in which
//               the Q4_0/MXFP4 kernels unpack blocks' nibbles (AVX2: two blocks per 256-bit
//               load, 32-byte pieces; AVX-512: four per 512-bit register, 64-byte halves), so
//               they need no cross-lane shuffles.
// The extras are derived copies, so reference and AVX2 kernels still see the same numbers.
// (static: internal linkage, see kernels/vec_dot_avx2.cpp.)
struct Q8_0ActLayout {
    size_t scales;
    size_t scales_dup;
    size_t interleaved;
    size_t row_bytes;
};

static constexpr size_t pad32(size_t n) {
    return (n + 31) / 32 * 32;
}

static constexpr Q8_0ActLayout q8_0_act_layout(int64_t k) {
    const size_t nb = static_cast<size_t>(k / 32);
    Q8_0ActLayout l{};
    l.scales = pad32(nb * 34);
    l.scales_dup = l.scales + pad32(nb * 4);
    l.interleaved = l.scales_dup + pad32(nb * 8);
    l.row_bytes = l.interleaved + nb / 4 * 128;
    return l;
}

// Layout of a Q8_K activation row as quantize_activations writes it (nb = k/256 super-blocks):
//   blocks  nb BlockQ8K (ggml's block_q8_K; all the reference and AVX2 kernels read)
//   pairs   from a multiple of 64 bytes, 256 bytes per super-block: for each half h (values
//           128h .. 128h + 127) the low 32 values of its two 64-value chunks, then their high 32:
//           qs[128h + 0..31], qs[128h + 64..95], qs[128h + 32..63], qs[128h + 96..127] — the
//           order of the Q4_K / Q5_K AVX-512 decode steps' low and high nibbles of a 512-bit
//           load, so they need no cross-lane shuffle of the activations.
// The pairs are a derived copy: every kernel still sees the same numbers.
struct Q8_KActLayout {
    size_t pairs;
    size_t row_bytes;
};

static constexpr Q8_KActLayout q8_k_act_layout(int64_t k) {
    const size_t nb = static_cast<size_t>(k / 256);
    Q8_KActLayout l{};
    l.pairs = (nb * 292 + 63) / 64 * 64; // sizeof(BlockQ8K) = 292
    l.row_bytes = l.pairs + nb * 256;
    return l;
}

struct KernelTable {
    const char* name;
    // (The per-weight-type dot products and the activation quantizers live in the weight-type
    // registry, kernels/weight_types.h.)
    // y = x / sqrt(mean(x²) + eps) · w  (w may be null = all ones)
    void (*rms_norm)(const float* x, const float* w, float* y, int64_t n, float eps);
    // y = x / max(||x||, eps)
    void (*l2_norm)(const float* x, float* y, int64_t n, float eps);
    // in place: x = softmax(x·scale + mask) (mask may be null)
    void (*softmax)(float* x, int64_t n, float scale, const float* mask);
    void (*silu)(const float* x, float* y, int64_t n);
    void (*swiglu)(const float* g, const float* u, float* y, int64_t n);
    void (*gelu_tanh)(const float* x, float* y, int64_t n);
    void (*gelu_erf)(const float* x, float* y, int64_t n);
    // Rotates the first n_dims values of x with cs[2i] = cos θ_i, cs[2i+1] = sin θ_i (already
    // scaled by the YaRN magnitude); neox: pairs (i, i + n_dims/2) instead of (2i, 2i+1).
    void (*rope)(float* x, const float* cs, int64_t n_dims, bool neox);
};

const KernelTable& reference_kernel_table();
#if defined(FOLIO_X86)
const KernelTable& avx2_kernel_table(); // only call when has_avx2_path()
#endif

// The table for ctx.path on this CPU.
const KernelTable& kernel_table(KernelPath path);
// True when KernelPath::Avx2 / Auto really run AVX2 code here.
bool avx2_kernels_available();
// True when the AVX-512 VNNI kernels (so far only q8_0 index scoring) run here under
// KernelPath::Auto; KernelPath::Avx2 never uses them.
bool avx512_vnni_kernels_available();
// The kernels `path` runs on this CPU: "avx512" (the AVX-512 VNNI GEMMs and dots, with AVX2 for
// the rest), "avx2" or "reference". FOLIO_KERNELS=avx2 / portable (folio/system_info.h) make
// Auto the AVX2 / reference path. The benches print it beside their figures.
const char* kernel_path_name(KernelPath path);

} // namespace folio
