#pragma once
// AVX2 dot products of Q1_0 and Q2_0 weights against Q8_0 activations (vec_dot_q1_q2_avx2.cpp):
// the reference's exact integer sums per 32-element activation block
// (kernels/reference/vec_dot_q1_q2_ref.h), their own float order. Declarations only: reached
// through the weight-type registry after a run-time CPU check.

#include <cstddef>
#include <cstdint>

namespace folio::avx2 {

void dot_q1_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q2_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);

} // namespace folio::avx2
