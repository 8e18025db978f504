#pragma once
// Read-only, private memory mapping of a whole file (the GGUF reader's only view of the bytes),
// and the private copy in RAM that can replace it at the same addresses.

#include "folio/error.h"

#include <cstdint>
#include <functional>
#include <string>

namespace folio::gguf {

struct Mapping {
    const uint8_t* data = nullptr; // nullptr for an empty file
    uint64_t size = 0;
};

// The mapping starts on a 2 MiB boundary, so copy_mapping_into_memory can give it huge pages.
// NotFound when the file does not exist, Io for any other open/stat/mmap failure.
Expected<Mapping> map_file_readonly(const std::string& path);
void unmap_file(const Mapping& m);

// Replaces the pages of `m` by a private anonymous copy of its bytes at the same addresses
// (pointers into the mapping stay valid), advised for 2 MiB transparent huge pages (why:
// runtime/weights_memory.h). `keep_going(bytes copied)` is asked every 64 MiB; when it says no, the
// copy is dropped and the file mapping stays. Reading a page the file no longer has raises
// SIGBUS as any read of the mapping does (core/fault_guard.h). Io when memory runs out or the
// system refuses the remap (the file mapping then stays too).
Expected<bool> copy_mapping_into_memory(const Mapping& m,
                                        const std::function<bool(uint64_t)>& keep_going);

} // namespace folio::gguf
