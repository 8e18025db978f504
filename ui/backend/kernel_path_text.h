#pragma once
// The kernels the engine runs on this processor, in the user's language: built from the
// engine's CpuFeatures (the same checks that pick the kernel path), so the engine stays free of
// Qt and of translations. The About box and the Devices pane show it.

#include "folio/system_info.h"

#include <QCoreApplication>
#include <QString>

namespace folio::ui {

class KernelPathText {
    Q_DECLARE_TR_FUNCTIONS(folio::ui::KernelPathText)
public:
    // e.g. "x86-64 AVX2+FMA+F16C kernels, AVX-512 VNNI int8 index scoring" (English).
    static QString describe(const CpuFeatures& features);
};

} // namespace folio::ui
