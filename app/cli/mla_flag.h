#pragma once
// Parses `--mla auto|naive|absorbed` (which form MLA attention takes,
// model/layer/decoder_eval_types.h).

#include "model/layer/decoder_eval_types.h"

#include <optional>
#include <string>

namespace folio::cli {

// nullopt for anything but "auto", "naive" or "absorbed".
std::optional<MlaForm> parse_mla_form(const std::string& text);

} // namespace folio::cli
