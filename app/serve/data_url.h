#pragma once
// Images in chat messages arrive as data URLs ("data:image/png;base64,...."); Folio never
// downloads anything, so other URLs are refused.

#include "folio/error.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace folio::serve {

// Strict base64 (standard alphabet, '=' padding optional, whitespace ignored).
Expected<std::vector<uint8_t>> decode_base64(std::string_view text);

// The bytes of a "data:<mime>;base64,<payload>" URL.
Expected<std::vector<uint8_t>> decode_data_url(std::string_view url);

} // namespace folio::serve
