#pragma once
// Errors of the engine's public API. The engine never throws across its API and never
// exits on bad input: every fallible call returns an Expected<T> holding a value or an Error
// whose message names the file, tensor or field at fault.

#include <cassert>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace folio {

enum class ErrorCode {
    Ok = 0,
    InvalidArgument, // a caller passed something unusable (bad option, token id >= vocab, ...)
    NotFound,        // a file, tensor or key that must exist does not
    Io,              // read/write/mmap failed (includes disk full)
    Format,          // a file is malformed (truncated, bad magic, inconsistent sizes, ...)
    Unsupported,     // well-formed but not something we implement (unknown arch, tensor type)
    OutOfMemory,     // a budget or allocation limit would be exceeded
    Cancelled,       // the caller asked to stop
    Internal,        // a bug: an invariant of ours does not hold
};

std::string_view error_code_name(ErrorCode code);

struct Error {
    ErrorCode code = ErrorCode::Internal;
    std::string message;

    // "format error: model.gguf: tensor 'blk.0.attn_q.weight' at byte 1234: ..."
    std::string to_string() const;
};

inline Error make_error(ErrorCode code, std::string message) {
    return Error{code, std::move(message)};
}

// A small std::expected stand-in (C++23 is not available on our baseline compilers).
template <typename T> class [[nodiscard]] Expected {
public:
    Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    Expected(Error error) : state_(std::in_place_index<1>, std::move(error)) {}

    bool has_value() const { return state_.index() == 0; }
    explicit operator bool() const { return has_value(); }

    T& value() & {
        assert(has_value());
        return std::get<0>(state_);
    }
    const T& value() const& {
        assert(has_value());
        return std::get<0>(state_);
    }
    T&& value() && {
        assert(has_value());
        return std::get<0>(std::move(state_));
    }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const {
        assert(!has_value());
        return std::get<1>(state_);
    }

private:
    std::variant<T, Error> state_;
};

// Expected<void>: success or an Error.
template <> class [[nodiscard]] Expected<void> {
public:
    Expected() = default;
    Expected(Error error) : error_(std::move(error)), ok_(false) {}

    bool has_value() const { return ok_; }
    explicit operator bool() const { return ok_; }
    const Error& error() const {
        assert(!ok_);
        return error_;
    }

private:
    Error error_{ErrorCode::Ok, {}};
    bool ok_ = true;
};

using Status = Expected<void>;

} // namespace folio

// Propagate an error from an Expected-returning expression: FOLIO_TRY(x, expr) declares x.
#define FOLIO_CONCAT_INNER(a, b) a##b
#define FOLIO_CONCAT(a, b) FOLIO_CONCAT_INNER(a, b)
#define FOLIO_TRY(var, expr)                                                                       \
    auto FOLIO_CONCAT(folio_try_, __LINE__) = (expr);                                              \
    if (!FOLIO_CONCAT(folio_try_, __LINE__))                                                       \
        return FOLIO_CONCAT(folio_try_, __LINE__).error();                                         \
    auto var = std::move(FOLIO_CONCAT(folio_try_, __LINE__)).value()
#define FOLIO_CHECK(expr)                                                                          \
    do {                                                                                           \
        auto folio_check_status = (expr);                                                          \
        if (!folio_check_status)                                                                   \
            return folio_check_status.error();                                                     \
    } while (0)
