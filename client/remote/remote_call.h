#pragma once
// One request to an OpenAI-compatible server, start to end, on the calling thread: build the
// body, connect (with retries), read the SSE stream, report through the request's callbacks.

#include "folio/remote_backend.h"
#include "remote/endpoint.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace httplib {
class Client;
}

namespace folio::remote {

// Shared between the request's thread and cancel(): the flag and the client to stop.
struct CallControl {
    std::mutex m;
    std::condition_variable cv; // wakes a backoff sleep on cancel
    std::atomic<bool> cancelled{false};
    httplib::Client* client = nullptr;
    void cancel();
};

// Fills client settings (timeouts, TLS, bearer token).
void configure_client(httplib::Client& c, const RemoteOptions& o);

// Runs the request; calls on_error (if it fails) and then on_done exactly once.
void run_remote_call(const RemoteOptions& o, const Endpoint& ep, Request r, CallControl& ctl,
                     std::chrono::steady_clock::time_point submitted);

} // namespace folio::remote
