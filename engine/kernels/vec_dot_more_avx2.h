#pragma once
// AVX2 dot products of Q4_1, Q5_0, Q5_1, IQ4_NL, Q2_K, Q3_K, Q5_K and IQ4_XS weights
// (vec_dot_more_avx2.cpp), same arithmetic as kernels/reference/vec_dot_ref_more.h. Declarations
// only: reached through the weight-type registry after a run-time CPU check.

#include <cstddef>
#include <cstdint>

namespace folio::avx2 {

void dot_q4_1(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q5_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q5_1(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q2_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q3_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
// vec_dot_q4k_q5k_avx2.cpp: Q4_K's kernel with the fifth bits added.
void dot_q5_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_iq4_xs(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);

} // namespace folio::avx2
