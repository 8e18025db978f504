#pragma once
// The error for a mapped file that faulted (core/fault_guard.h: a SIGBUS on its mapping became
// zero pages), for the model slot (text and draft models) and the image-embedding cache
// (vision projector).

#include "folio/error.h"

#include <cstdint>
#include <string>

namespace folio {

// `kind` is "model" or "vision projector".
inline Error file_lost_under_mapping(const std::string& path, const char* kind, uint64_t pages) {
    return make_error(ErrorCode::Io, path + ": the " + kind +
                                         " file was changed or truncated on disk while in use (" +
                                         std::to_string(pages) +
                                         " pages could not be read); load the model again");
}

} // namespace folio
