#include "kernels/kernel_table.h"

#include "folio/system_info.h"

namespace folio {

bool avx2_kernels_available() {
#if defined(FOLIO_X86)
    static const bool available = detect_cpu_features().has_avx2_path();
    return available;
#else
    return false;
#endif
}

bool avx512_vnni_kernels_available() {
#if defined(FOLIO_X86)
    static const bool available = detect_cpu_features().has_avx512_vnni_path();
    return available;
#else
    return false;
#endif
}

const char* kernel_path_name(KernelPath path) {
    if (path == KernelPath::Reference || !avx2_kernels_available())
        return "reference";
    if (path == KernelPath::Auto && avx512_vnni_kernels_available())
        return "avx512";
    return "avx2";
}

const KernelTable& kernel_table(KernelPath path) {
#if defined(FOLIO_X86)
    if (path != KernelPath::Reference && avx2_kernels_available())
        return avx2_kernel_table();
#else
    (void)path;
#endif
    return reference_kernel_table();
}

} // namespace folio
