#pragma once
// How much of a memory-mapped file is resident in this process: the sum of the "Rss:" fields of
// the mappings of /proc/self/smaps whose path is the file's (Linux, proc(5)). Reading smaps walks
// the page tables of every mapping (milliseconds for a large model), so callers measure every few
// seconds rather than at every statistics poll.

#include <cstdint>
#include <string>
#include <string_view>

namespace folio {

// Resident bytes of `path`'s mappings in this process; 0 when the file is not mapped or smaps
// cannot be read (another system).
uint64_t mapped_resident_bytes(const std::string& path);

// The same over smaps text already read (for tests); `path` must be the canonical path.
uint64_t mapped_resident_bytes_in(std::string_view smaps, std::string_view path);

// Bytes in transparent huge pages ("AnonHugePages:") of the mappings overlapping
// [begin, begin + size): how much of a copy in RAM (gguf::File::copy_into_memory) got them.
uint64_t huge_page_bytes(const void* begin, uint64_t size);
uint64_t huge_page_bytes_in(std::string_view smaps, const void* begin, uint64_t size);

} // namespace folio
