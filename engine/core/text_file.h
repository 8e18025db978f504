#pragma once
// Small text files the system publishes (/proc, /sys): read whole into a string.

#include <string>

namespace folio {

// The file's whole contents; empty when it cannot be opened (callers treat the fact as unknown).
std::string read_text_file(const std::string& path);

} // namespace folio
