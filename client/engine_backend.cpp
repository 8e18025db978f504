#include "folio/engine_backend.h"

#include <nlohmann/json.hpp>

namespace folio {

EngineChatBackend::EngineChatBackend(Engine& engine, std::string model_name, SessionId session)
    : engine_(engine), model_(std::move(model_name)),
      session_(session >= 0 ? session : engine.create_session()), owns_session_(session < 0) {}

EngineChatBackend::~EngineChatBackend() {
    if (owns_session_)
        engine_.close_session(session_);
}

std::string canonical_tools_json(const std::string& tools_json) {
    if (tools_json.empty())
        return tools_json;
    const nlohmann::json j = nlohmann::json::parse(tools_json, nullptr, false);
    return j.is_discarded() ? tools_json : j.dump();
}

RequestId EngineChatBackend::submit(Request request) {
    request.tools_json = canonical_tools_json(request.tools_json);
    {
        std::lock_guard lk(shared_->m);
        ++shared_->running;
    }
    auto user_done = std::move(request.callbacks.on_done);
    request.callbacks.on_done = [shared = shared_, user_done](const RequestStats& s) {
        {
            std::lock_guard lk(shared->m);
            --shared->running;
            shared->last = s;
        }
        if (user_done)
            user_done(s);
    };
    return engine_.submit(session_, std::move(request));
}

void EngineChatBackend::cancel(RequestId id) {
    engine_.cancel(id);
}

void EngineChatBackend::cancel_all() {
    engine_.cancel_all();
}

void EngineChatBackend::wait(RequestId id) {
    engine_.wait(id);
}

ChatBackendStatus EngineChatBackend::status() const {
    ChatBackendStatus s;
    s.kind = "embedded";
    s.model = model_;
    std::lock_guard lk(shared_->m);
    s.running = shared_->running;
    s.last = shared_->last;
    return s;
}

} // namespace folio
