#include "runtime/thread_park.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace folio {

bool park_kernel_threads() {
#ifdef _OPENMP
    if (omp_in_parallel())
        return false;
    return omp_pause_resource_all(omp_pause_soft) == 0;
#else
    return true;
#endif
}

} // namespace folio
