#pragma once
// AVX-512 (F/VL/BW) dot products for the decode path (vec_dot_kquant_avx512.cpp: the k-quants;
// vec_dot_q8_0_avx512.cpp: Q8_0 and short Q5_0 rows; vec_dot_nibbles_avx512.cpp: the 4-bit
// Q8_0-activation formats and IQ4_XS), same signature and (but for the 4-bit Q8_0-activation dots)
// results as their AVX2 counterparts (kernels/kernel_table.h VecDotFn). Declarations only: reached
// through weight_dot() under KernelPath::Auto when avx512_vnni_kernels_available().

#include <cstddef>
#include <cstdint>

namespace folio::avx512 {

// Q4_K × Q8_K: two 32-byte chunks of a super-block per 512-bit step, avx2::dot_q4_k's exact int32
// lane sums; its own float steps (d and dmin in one 512-bit FMA), within float rounding of the
// reference.
void dot_q4_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
// nw (1..4) Q4_K rows against one Q8_K activation row, dot_q4_k's bits per row.
void dot_q4_k_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out);
// Q2_K × Q8_K, equal to avx2::dot_q2_k bit for bit: two 32-value groups per 512-bit step.
void dot_q2_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
// nw (1..4) Q2_K rows against one Q8_K activation row, dot_q2_k's bits per row.
void dot_q2_k_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out);
// Q3_K × Q8_K, equal to avx2::dot_q3_k bit for bit: two 32-value groups per 512-bit step.
void dot_q3_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
// nw (1..4) Q3_K rows against one Q8_K activation row, dot_q3_k's bits per row.
void dot_q3_k_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out);
// Q5_K × Q8_K: dot_q4_k's steps with the fifth bits added (avx2::dot_q5_k's int32 lane sums,
// dot_q4_k's float steps).
void dot_q5_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
// nw (1..4) Q5_K rows against one Q8_K activation row, dot_q5_k's bits per row.
void dot_q5_k_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out);
// Q6_K × Q8_K, equal to avx2::dot_q6_k bit for bit: two 32-byte groups of a half super-block per
// 512-bit step, the same exact int32 lane sums, the same float steps.
void dot_q6_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
// nw (1..4) Q6_K rows against one Q8_K activation row, dot_q6_k's bits per row.
void dot_q6_k_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out);
// Q8_0 × Q8_0, equal to avx2::dot_q8_0 bit for bit: two blocks per vpdpbusd, the same exact
// block sums and float steps.
void dot_q8_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
// nw (1..4) Q8_0 rows against one Q8_0 activation row, dot_q8_0's bits per row.
void dot_q8_0_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out);
// Q5_0 × Q8_0. Rows of fewer than kQ5_0Blocks4MinK values (W_UK slices of 64): equal to
// avx2::dot_q5_0 bit for bit (two blocks per 512-bit step, vpdpbusd on the unsigned 5-bit values
// minus 16·Σx, the same exact int32 lanes, the same float steps). Longer rows:
// dot_q5_0_blocks4's own order of float sums. Either way a row's bits do not depend on how many
// activation rows or weight rows go with it.
inline constexpr int64_t kQ5_0Blocks4MinK = 128;
void dot_q5_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
// nw (1..4) Q5_0 rows against one Q8_0 activation row, dot_q5_0's bits per row.
void dot_q5_0_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out);

// MXFP4, Q4_0 and IQ4_NL × Q8_0 (vec_dot_nibbles_avx512.cpp): four blocks per 512-bit step with
// vpdpbusd; their own order of float sums (not the AVX2 kernels' bits), within float rounding
// of the reference.
void dot_mxfp4(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q4_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_iq4_nl(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
// nw (1..4) rows of those against one Q8_0 activation row, the one-row dot's bits per row.
void dot_mxfp4_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out);
void dot_q4_0_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out);
void dot_iq4_nl_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out);
// IQ4_XS × Q8_K the same way: 4 sub-blocks of a super-block per 512-bit step, int32 sums scaled
// per sub-block, one FMA per super-block.
void dot_iq4_xs(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
// Q5_0 the same way (rows of at least kQ5_0Blocks4MinK values; dot_q5_0 picks it).
void dot_q5_0_blocks4(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                      int64_t os);

} // namespace folio::avx512
