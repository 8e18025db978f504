#include "folio/error.h"

namespace folio {

std::string_view error_code_name(ErrorCode code) {
    switch (code) {
    case ErrorCode::Ok:
        return "ok";
    case ErrorCode::InvalidArgument:
        return "invalid argument";
    case ErrorCode::NotFound:
        return "not found";
    case ErrorCode::Io:
        return "i/o error";
    case ErrorCode::Format:
        return "format error";
    case ErrorCode::Unsupported:
        return "unsupported";
    case ErrorCode::OutOfMemory:
        return "out of memory";
    case ErrorCode::Cancelled:
        return "cancelled";
    case ErrorCode::Internal:
        return "internal error";
    }
    return "unknown error";
}

std::string Error::to_string() const {
    std::string out(error_code_name(code));
    if (!message.empty()) {
        out += ": ";
        out += message;
    }
    return out;
}

} // namespace folio
