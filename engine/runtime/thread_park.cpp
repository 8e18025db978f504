#include "runtime/thread_park.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#if defined(_OPENMP) && defined(__clang__)
// Clang's -fopenmp runs the kernels on LLVM's libomp. A process may hold libgomp too (Tesseract
// links it), and both export omp_pause_resource_all: the dynamic linker may bind the call to
// libgomp's, which pauses nothing of ours (the sanitizer builds' test_idle_threads saw libomp's
// 200 ms block time spin after every request). libomp's own entry point is unambiguous; its
// soft pause alone still left the workers spinning out the block time, so the block time goes
// to 0 too (workers sleep at once between regions: slower decode, in the sanitizer builds only;
// the shipped GCC build keeps libgomp's spin within a request).
extern "C" int __kmpc_pause_resource(int level); // kmp_soft_paused == omp_pause_soft == 1
extern "C" void kmp_set_blocktime(int milliseconds);
#endif

namespace folio {

bool park_kernel_threads() {
#ifdef _OPENMP
    if (omp_in_parallel())
        return false;
#if defined(__clang__)
    kmp_set_blocktime(0);
    return __kmpc_pause_resource(omp_pause_soft) == 0;
#else
    return omp_pause_resource_all(omp_pause_soft) == 0;
#endif
#else
    return true;
#endif
}

} // namespace folio
