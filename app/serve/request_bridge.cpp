#include "serve/request_bridge.h"

namespace folio::serve {

std::shared_ptr<RequestBridge> RequestBridge::attach(Request& r) {
    auto b = std::make_shared<RequestBridge>();
    r.callbacks.on_token = [b](std::string_view text, int32_t id) {
        std::lock_guard lk(b->m_);
        b->pending_.push_back({std::string(text), id});
        b->cv_.notify_all();
    };
    r.callbacks.on_error = [b](const Error& e) {
        std::lock_guard lk(b->m_);
        b->failed_ = true;
        b->error_ = e;
    };
    r.callbacks.on_done = [b](const RequestStats& s) {
        std::lock_guard lk(b->m_);
        b->stats_ = s;
        b->done_ = true;
        b->cv_.notify_all();
    };
    return b;
}

bool RequestBridge::take(std::vector<TokenPiece>& out, std::chrono::milliseconds timeout) {
    std::unique_lock lk(m_);
    cv_.wait_for(lk, timeout, [&] { return done_ || !pending_.empty(); });
    for (auto& p : pending_)
        out.push_back(std::move(p));
    pending_.clear();
    return done_;
}

bool RequestBridge::finished() const {
    std::lock_guard lk(m_);
    return done_;
}

RequestStats RequestBridge::stats() const {
    std::lock_guard lk(m_);
    return stats_;
}

bool RequestBridge::failed() const {
    std::lock_guard lk(m_);
    return failed_;
}

Error RequestBridge::error() const {
    std::lock_guard lk(m_);
    return error_;
}

} // namespace folio::serve
