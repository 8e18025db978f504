#pragma once
// Carries one request's events from the engine's worker thread (callbacks must be quick and never
// block on the network) to the HTTP thread that writes them: a queue of token pieces and the
// final outcome, behind a mutex and a condition variable.

#include "folio/engine.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace folio::serve {

struct TokenPiece {
    std::string text;
    int32_t id = -1; // -1: text flushed at the end, no token of its own
};

class RequestBridge {
public:
    // Installs callbacks on `r` that feed the returned bridge (shared with them).
    static std::shared_ptr<RequestBridge> attach(Request& r);

    // Waits up to `timeout` for pieces or the end; moves the pending pieces into `out`.
    // Returns true once the request has finished and every piece has been taken.
    bool take(std::vector<TokenPiece>& out, std::chrono::milliseconds timeout);

    bool finished() const;
    // Valid once finished.
    RequestStats stats() const;
    bool failed() const;
    Error error() const;

private:
    mutable std::mutex m_;
    std::condition_variable cv_;
    std::vector<TokenPiece> pending_;
    bool done_ = false;
    bool failed_ = false;
    Error error_;
    RequestStats stats_;
};

} // namespace folio::serve
