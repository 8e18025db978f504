#include "backend/kernel_path_text.h"

namespace folio::ui {

QString KernelPathText::describe(const CpuFeatures& f) {
    // The instruction-set names are not words to translate; what they do is.
    if (f.has_avx512_vnni_path())
        return tr("x86-64 %1 kernels, %2 int8 index scoring")
            .arg(QStringLiteral("AVX2+FMA+F16C"), QStringLiteral("AVX-512 VNNI"));
    if (f.has_avx2_path())
        return tr("x86-64 %1 kernels").arg(QStringLiteral("AVX2+FMA+F16C"));
    return tr("portable scalar kernels (no %1)").arg(QStringLiteral("AVX2/FMA/F16C"));
}

} // namespace folio::ui
