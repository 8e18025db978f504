#pragma once
// Internal: a fault-injection point for the out-of-memory path of the parallel regions (issue 48
// item 16). Tests arm it to make scratch growth inside an OpenMP region throw std::bad_alloc, as
// a refused allocation does, on the worker thread; sanitizer builds cannot use RLIMIT_AS for
// that (ASan reserves terabytes of shadow memory), so the tests fail the allocation here. Off, a
// fault point costs one relaxed atomic load.

#include <cstddef>

namespace folio {

// While armed, fault points inside a parallel region asking for at least min_bytes throw
// std::bad_alloc. 0 disarms.
void arm_region_allocation_faults(size_t min_bytes);
// Fault injections made since the process started (tests check that theirs fired).
size_t region_allocation_faults();
// Placed before a scratch buffer grows inside a parallel region.
void region_allocation_fault_point(size_t bytes);

} // namespace folio
