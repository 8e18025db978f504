#pragma once
// A quick fingerprint of a model file's contents: its size, its first and last MiB (the GGUF
// header, metadata and tensor directory live at the start) and 64 KiB samples spread over the
// tensor data, hashed to 128 bits. It names document caches made with a model: a re-quantized
// or re-downloaded file with other weights gets another fingerprint, a renamed or copied file
// keeps it. Not cryptographic; reads at most ~3 MiB.

#include "folio/error.h"

#include <string>

namespace folio::gguf {

// 32 hex digits.
Expected<std::string> file_fingerprint(const std::string& path);

} // namespace folio::gguf
