#include "backend/user_error.h"

#include <string_view>

namespace folio::ui {

namespace {

bool has(const std::string& text, std::string_view what) {
    return text.find(what) != std::string::npos;
}

QString codeSentence(ErrorCode code) {
    switch (code) {
    case ErrorCode::Ok:
        return UserError::tr("No error was reported.");
    case ErrorCode::InvalidArgument:
        return UserError::tr("Folio was given a setting or input it cannot use. Check the "
                             "settings and the files you chose, then try again.");
    case ErrorCode::NotFound:
        return UserError::tr("Something Folio needs was not found in the file or on disk. "
                             "Check the file, or choose another one.");
    case ErrorCode::Io:
        return UserError::tr("Reading or writing a file failed. Check the disk and the file, "
                             "then try again.");
    case ErrorCode::Format:
        return UserError::tr("The file is damaged or is not in the expected format. Choose "
                             "another file, or copy this one again.");
    case ErrorCode::Unsupported:
        return UserError::tr("Folio does not support this file or feature. Choose another "
                             "model file, or update Folio.");
    case ErrorCode::OutOfMemory:
        break; // a kind of its own
    case ErrorCode::Cancelled:
        break;
    case ErrorCode::Internal:
        return UserError::tr("Folio ran into an internal error. Please report it with the "
                             "details below; trying again may work.");
    }
    return UserError::tr("Something went wrong. Try again; if it keeps happening, report it "
                         "with the details below.");
}

} // namespace

ErrorKind errorKind(const Error& e) {
    const std::string& m = e.message;
    switch (e.code) {
    case ErrorCode::Cancelled:
        return ErrorKind::Cancelled;
    case ErrorCode::OutOfMemory:
        return ErrorKind::OutOfMemory;
    default:
        break;
    }
    // strerror's words, whatever the code the engine gave them.
    if (has(m, "No space left on device") || has(m, "Disk quota exceeded") || has(m, "disk full"))
        return ErrorKind::DiskFull;
    if (has(m, "Permission denied") || has(m, "Operation not permitted"))
        return ErrorKind::PermissionDenied;
    if (has(m, "Cannot allocate memory") || has(m, "out of memory"))
        return ErrorKind::OutOfMemory;
    switch (e.code) {
    case ErrorCode::NotFound:
        if (has(m, "No such file") || has(m, "cannot open") || has(m, "cannot read") ||
            has(m, "Not a directory") || has(m, "no such database"))
            return ErrorKind::FileMissing;
        break;
    case ErrorCode::Format:
        if (has(m, "ggml type ") && has(m, " is not supported"))
            return ErrorKind::UnsupportedType; // a type id the reader has no table for
        if (has(m, "truncated") || has(m, "ends before") || has(m, "past the end"))
            return ErrorKind::Truncated;
        break;
    case ErrorCode::Unsupported:
        if (has(m, "tensor type") || has(m, "' has type") || has(m, "no quantizer for"))
            return ErrorKind::UnsupportedType;
        break;
    case ErrorCode::InvalidArgument:
        if (has(m, "the context holds") || has(m, "does not fit the context") ||
            has(m, "context is too small"))
            return ErrorKind::ContextTooSmall;
        break;
    case ErrorCode::Io:
        if (has(m, "cannot reach ") || has(m, "the connection to "))
            return ErrorKind::ServerUnreachable;
        if (has(m, "No such file"))
            return ErrorKind::FileMissing;
        break;
    default:
        break;
    }
    return ErrorKind::General;
}

QString UserError::sentence(const Error& e) {
    switch (errorKind(e)) {
    case ErrorKind::FileMissing:
        return tr("A file Folio needs is missing or cannot be opened. Check that it still exists "
                  "where it was, or choose it again.");
    case ErrorKind::PermissionDenied:
        return tr("Folio is not allowed to read or write a file it needs. Check the file's and "
                  "its folder's permissions, or choose another location.");
    case ErrorKind::Truncated:
        return tr("The file is cut short: it was not copied or downloaded completely. Copy or "
                  "download it again.");
    case ErrorKind::UnsupportedType:
        return tr("The model file stores some weights in a type Folio cannot compute. Choose a "
                  "file quantized with another type (for example Q4_K_M or Q8_0).");
    case ErrorKind::OutOfMemory:
        return tr("There is not enough memory. Lower the context length or the RAM budget in "
                  "File → Settings…, set a disk folder for the cache, or close other programs.");
    case ErrorKind::DiskFull:
        return tr("The disk is full. Free some space, or choose a cache folder on another disk "
                  "in File → Settings…, then try again.");
    case ErrorKind::ContextTooSmall:
        return tr("The text does not fit the model's context. Raise the context length in File → "
                  "Settings…, or ask about fewer pages or documents.");
    case ErrorKind::Cancelled:
        return tr("The work was stopped before it finished.");
    case ErrorKind::ServerUnreachable:
        return tr("The server cannot be reached. Check that it is running and its address in "
                  "File → Settings…, then try again.");
    case ErrorKind::General:
        break;
    }
    return codeSentence(e.code);
}

QString UserError::details(const Error& e) {
    return e.message.empty() ? QString() : QString::fromStdString(e.to_string());
}

QString userErrorText(const Error& e) {
    const QString details = UserError::details(e);
    const QString sentence = UserError::sentence(e);
    if (details.isEmpty())
        return sentence;
    return sentence + QLatin1Char('\n') + UserError::tr("Details: %1").arg(details);
}

} // namespace folio::ui
