#pragma once
// Read-only, private memory mapping of a whole file (the GGUF reader's only view of the bytes).

#include "folio/error.h"

#include <cstdint>
#include <string>

namespace folio::gguf {

struct Mapping {
    const uint8_t* data = nullptr; // nullptr for an empty file
    uint64_t size = 0;
};

// NotFound when the file does not exist, Io for any other open/stat/mmap failure.
Expected<Mapping> map_file_readonly(const std::string& path);
void unmap_file(const Mapping& m);

} // namespace folio::gguf
