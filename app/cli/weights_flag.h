#pragma once
// Parses `--weights mapped|ram|auto` (where the model's weights live, folio/engine.h
// WeightsMemory).

#include "folio/engine.h"

#include <optional>
#include <string>

namespace folio::cli {

// nullopt for anything but "auto", "ram" or "mapped".
std::optional<WeightsMemory> parse_weights_memory(const std::string& text);

inline constexpr const char* kWeightsFlagError = "--weights must be mapped, ram or auto";

} // namespace folio::cli
