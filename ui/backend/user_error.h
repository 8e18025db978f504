#pragma once
// What the window says when the engine (or a server) fails: a sentence in the user's language
// that says what happened and what to do, chosen from the error's code and, where the engine's
// English message shows it, its kind (a missing file, a truncated file, a tensor type Folio
// cannot compute, no memory, a full disk, a context too small, ...). The engine's own message
// names files and tensors: it is kept, untranslated, on a "Details:" line for bug reports.
// Every place of ui/ that turns a folio::Error into text goes through userErrorText.

#include "folio/error.h"

#include <QCoreApplication>
#include <QString>

namespace folio::ui {

// The kinds of failure that get a sentence of their own (beyond their code's).
enum class ErrorKind {
    General, // only the code is known
    FileMissing,
    PermissionDenied,
    Truncated,
    UnsupportedType,
    OutOfMemory,
    DiskFull,
    ContextTooSmall,
    Cancelled,
    ServerUnreachable,
};

ErrorKind errorKind(const Error& error);

class UserError {
    Q_DECLARE_TR_FUNCTIONS(folio::ui::UserError)
public:
    // The sentence for `error` (translated under the context "folio::ui::UserError").
    static QString sentence(const Error& error);
    // The engine's message ("format error: model.gguf: ...") behind the sentence.
    static QString details(const Error& error);
};

// sentence + "\nDetails: " + details (the details line left out when there is no message).
QString userErrorText(const Error& error);

} // namespace folio::ui
