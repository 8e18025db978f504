#pragma once
// One interface for "something that answers chat requests": the embedded Engine
// (EngineChatBackend, folio/engine_backend.h) or an OpenAI-compatible server such as vLLM, SGLang
// or `folio-cli serve` (RemoteBackend, folio/remote_backend.h). Both take the Engine's Request and
// report through its RequestCallbacks / RequestStats, so a chat pane can switch between them
// without changing how it builds requests or shows answers. std only.
//
// Contract (same as Engine::submit):
// * callbacks run on a thread of the backend, never the caller's; keep them quick and do not call
//   back into the backend from them synchronously (queue the work, as EngineWorker does);
// * every submitted request ends with exactly one on_done, whose RequestStats::stop_reason is
//   "eos" | "stop" | "length" | "cancelled" | "error" and whose text is the answer so far;
//   a failure calls on_error first (a dropped connection keeps the partial answer in on_done).

#include "folio/engine.h"

#include <string>

namespace folio {

struct ChatBackendStatus {
    std::string kind;     // "embedded" | "remote"
    std::string model;    // the model answering (file name, or the server's model id)
    std::string endpoint; // remote: the base URL (never the API key); embedded: ""
    int running = 0;      // submitted requests that have not finished
    RequestStats last;    // the most recent finished request
};

class ChatBackend {
public:
    virtual ~ChatBackend() = default;

    virtual RequestId submit(Request request) = 0;
    // Stops a request soon (within a decode step locally, at once for a remote stream); its
    // on_done reports "cancelled" with the text so far. Unknown or finished ids are ignored.
    virtual void cancel(RequestId id) = 0;
    virtual void cancel_all() = 0;
    // Blocks until the request has finished (CLI and tests; never from a callback).
    virtual void wait(RequestId id) = 0;
    virtual ChatBackendStatus status() const = 0;
};

} // namespace folio
