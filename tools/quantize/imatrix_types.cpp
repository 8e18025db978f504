#include "quantize/imatrix_types.h"

#include "kernels/weight_types.h"
#include "tensor/dtype.h"

namespace folio::tools {

Status refuse_unwritable_type(const std::string& name) {
    // llama-quantize file types built from these tensor types that are not tensor type names.
    static const char* kFileTypes[] = {"iq2_m", "iq3_xs", "iq3_m"};
    bool unwritable = false;
    for (const char* f : kFileTypes)
        unwritable = unwritable || name == f;
    if (const auto type = dtype_from_name(name)) {
        const WeightType* w = find_weight_type(*type);
        unwritable = unwritable || (w != nullptr && w->quantize == nullptr);
    }
    if (!unwritable)
        return {};
    return make_error(ErrorCode::Unsupported,
                      "folio-cli quantize cannot write " + name +
                          ": it needs an importance matrix (make it with llama-imatrix and "
                          "llama-quantize --imatrix); Folio loads and runs such files");
}

} // namespace folio::tools
