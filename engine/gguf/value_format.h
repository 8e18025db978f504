#pragma once
// Short human-readable renderings of GGUF metadata values (folio-cli info, the model panel).

#include "gguf/gguf_file.h"

#include <string>

namespace folio::gguf {

// "uint32", "string", "array[int32]", ...
std::string value_type_label(const Value& v);
// Scalars in full ("4096", "1e-06", "true", "\"deepseek2\""); strings longer than
// `max_chars` cut with their byte count; arrays longer than `max_items` summarized as
// `[320 strings: "<unk>", "<s>", ... ]`.
std::string format_value(const Value& v, size_t max_items = 8, size_t max_chars = 80);

} // namespace folio::gguf
