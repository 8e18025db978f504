#pragma once
// ChatBackend over the embedded folio::Engine: requests go to one session of the engine (so a
// conversation's earlier turns are reused from the cache).

#include "folio/chat_backend.h"

#include <memory>
#include <mutex>

namespace folio {

// The one text form of a request's tool declarations (Request::tools_json) that both backends
// put in the prompt: compact JSON with the object keys in sorted order, exactly what
// `folio-cli serve` (and our RemoteBackend's request body) make of the `tools` array with
// nlohmann::json::dump(). EngineChatBackend applies it, so the same tool turn renders the same
// prompt through the embedded engine and through the server. Text that is not JSON is returned
// unchanged (the engine then uses it as given).
std::string canonical_tools_json(const std::string& tools_json);

class EngineChatBackend : public ChatBackend {
public:
    // `engine` must outlive this object. session < 0: a new session, closed by the destructor.
    explicit EngineChatBackend(Engine& engine, std::string model_name = {}, SessionId session = -1);
    ~EngineChatBackend() override;

    RequestId submit(Request request) override;
    void cancel(RequestId id) override;
    void cancel_all() override; // Engine::cancel_all: every session's requests
    void wait(RequestId id) override;
    ChatBackendStatus status() const override;

    SessionId session() const { return session_; }

private:
    struct Shared {
        std::mutex m;
        int running = 0;
        RequestStats last;
    };
    Engine& engine_;
    std::string model_;
    SessionId session_;
    bool owns_session_;
    std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
};

} // namespace folio
