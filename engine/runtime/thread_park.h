#pragma once
// Internal: idle kernel threads sleep.
//
// The kernels' OpenMP workers spin at their barriers between regions (libgomp's default wait
// policy: about 300,000 pause loops, 7–10 ms on the bench machines, before they sleep on a
// futex). Within a step that is what keeps decode fast, but after the last step of a request it
// took a core per worker for those milliseconds, and a few more each time a region ran while
// nothing else did. The policy itself (OMP_WAIT_POLICY, GOMP_SPINCOUNT) is read once when the
// runtime is loaded, before main, so a program cannot change it; instead the engine parks its
// team when it has nothing left to do: the workers end at once and the next region starts new
// ones (tens of microseconds, once per request). docs/NUMERICS.md has the measurements.

namespace folio {

// Ends the calling thread's OpenMP team (OpenMP 5's soft pause), so no worker of it is left
// spinning. Call outside any parallel region, from the thread that runs the kernels; true when
// the runtime did so. Without OpenMP: nothing to do, true.
bool park_kernel_threads();

} // namespace folio
