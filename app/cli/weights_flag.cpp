#include "cli/weights_flag.h"

namespace folio::cli {

std::optional<WeightsMemory> parse_weights_memory(const std::string& text) {
    if (text == "auto")
        return WeightsMemory::Auto;
    if (text == "ram")
        return WeightsMemory::Ram;
    if (text == "mapped")
        return WeightsMemory::Mapped;
    return std::nullopt;
}

} // namespace folio::cli
