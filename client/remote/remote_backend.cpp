#include "folio/remote_backend.h"

#include "remote/endpoint.h"
#include "remote/remote_call.h"
#include "remote/stream_event.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <map>
#include <thread>

namespace folio {

namespace {

struct Call {
    remote::CallControl ctl;
    std::thread thread;
    bool done = false;
};

} // namespace

struct RemoteBackend::Impl {
    RemoteOptions options;
    Expected<remote::Endpoint> endpoint;
    mutable std::mutex m;
    std::condition_variable done_cv;
    std::map<RequestId, std::shared_ptr<Call>> calls;
    RequestId next_id = 1;
    int running = 0;
    RequestStats last;

    explicit Impl(RemoteOptions o)
        : options(std::move(o)), endpoint(remote::parse_endpoint(options.base_url)) {}

    // Joins the threads of finished calls (never the caller's own).
    void reap(std::unique_lock<std::mutex>& lk) {
        std::vector<std::shared_ptr<Call>> finished;
        for (auto it = calls.begin(); it != calls.end();) {
            if (it->second->done) {
                finished.push_back(it->second);
                it = calls.erase(it);
            } else {
                ++it;
            }
        }
        lk.unlock();
        for (auto& c : finished)
            if (c->thread.joinable() && c->thread.get_id() != std::this_thread::get_id())
                c->thread.join();
            else if (c->thread.joinable())
                c->thread.detach();
        lk.lock();
    }
};

RemoteBackend::RemoteBackend(RemoteOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {
    // Writing to a server that has gone away raises SIGPIPE; the error is handled instead.
    std::signal(SIGPIPE, SIG_IGN);
}

RemoteBackend::~RemoteBackend() {
    cancel_all();
    std::unique_lock lk(impl_->m);
    impl_->done_cv.wait(lk, [&] { return impl_->running == 0; });
    for (auto& [id, c] : impl_->calls)
        c->done = true;
    impl_->reap(lk);
}

Expected<void> RemoteBackend::valid() const {
    if (!impl_->endpoint)
        return impl_->endpoint.error();
    return {};
}

Expected<std::vector<RemoteModel>> RemoteBackend::list_models() {
    if (!impl_->endpoint)
        return impl_->endpoint.error();
    const remote::Endpoint& ep = *impl_->endpoint;
    const RemoteOptions& o = impl_->options;
    const std::string url = ep.display() + "/models";
    for (int attempt = 0;; ++attempt) {
        httplib::Client client(ep.scheme_host_port);
        remote::configure_client(client, o);
        auto res = client.Get(ep.prefix + "/models");
        if (!res) {
            if (attempt < o.max_retries && (res.error() == httplib::Error::Connection ||
                                            res.error() == httplib::Error::ConnectionTimeout)) {
                std::this_thread::sleep_for(
                    std::chrono::duration<double, std::milli>(o.backoff_ms * (1 << attempt)));
                continue;
            }
            return make_error(ErrorCode::Io,
                              "cannot reach " + url + ": " + httplib::to_string(res.error()));
        }
        if (res->status != 200)
            return make_error(res->status < 500 ? ErrorCode::InvalidArgument : ErrorCode::Io,
                              "HTTP " + std::to_string(res->status) + " from " + url + ": " +
                                  remote::error_message_of(res->body));
        auto j = nlohmann::json::parse(res->body, nullptr, false);
        if (j.is_discarded() || !j.is_object() || !j.contains("data") || !j["data"].is_array())
            return make_error(ErrorCode::Format, url + " did not answer a model list");
        std::vector<RemoteModel> out;
        for (const auto& m : j["data"]) {
            if (!m.is_object() || !m.contains("id") || !m["id"].is_string())
                continue;
            RemoteModel rm;
            rm.id = m["id"].get<std::string>();
            if (m.contains("owned_by") && m["owned_by"].is_string())
                rm.owned_by = m["owned_by"].get<std::string>();
            if (m.contains("max_model_len") && m["max_model_len"].is_number_integer())
                rm.context_length = m["max_model_len"].get<int64_t>();
            else if (m.contains("meta") && m["meta"].is_object() &&
                     m["meta"].contains("context_length") &&
                     m["meta"]["context_length"].is_number_integer())
                rm.context_length = m["meta"]["context_length"].get<int64_t>();
            if (m.contains("meta") && m["meta"].is_object() && m["meta"].contains("vision") &&
                m["meta"]["vision"].is_boolean())
                rm.accepts_images = m["meta"]["vision"].get<bool>();
            out.push_back(std::move(rm));
        }
        return out;
    }
}

RequestId RemoteBackend::submit(Request request) {
    const auto submitted = std::chrono::steady_clock::now();
    std::unique_lock lk(impl_->m);
    impl_->reap(lk);
    const RequestId id = impl_->next_id++;
    auto call = std::make_shared<Call>();
    impl_->calls[id] = call;
    ++impl_->running;
    auto user_done = std::move(request.callbacks.on_done);
    Impl* impl = impl_.get();
    request.callbacks.on_done = [impl, call, user_done](const RequestStats& s) {
        if (user_done)
            user_done(s);
        std::lock_guard lk(impl->m);
        impl->last = s;
        call->done = true;
        --impl->running;
        impl->done_cv.notify_all();
    };
    call->thread = std::thread([impl, call, submitted, r = std::move(request)]() mutable {
        if (!impl->endpoint) {
            if (r.callbacks.on_error)
                r.callbacks.on_error(impl->endpoint.error());
            RequestStats s;
            s.stop_reason = "error";
            r.callbacks.on_done(s);
            return;
        }
        remote::run_remote_call(impl->options, *impl->endpoint, std::move(r), call->ctl, submitted);
    });
    return id;
}

void RemoteBackend::cancel(RequestId id) {
    std::shared_ptr<Call> call;
    {
        std::lock_guard lk(impl_->m);
        auto it = impl_->calls.find(id);
        if (it == impl_->calls.end())
            return;
        call = it->second;
    }
    call->ctl.cancel();
}

void RemoteBackend::cancel_all() {
    std::vector<std::shared_ptr<Call>> all;
    {
        std::lock_guard lk(impl_->m);
        for (auto& [id, c] : impl_->calls)
            all.push_back(c);
    }
    for (auto& c : all)
        c->ctl.cancel();
}

void RemoteBackend::wait(RequestId id) {
    std::unique_lock lk(impl_->m);
    auto it = impl_->calls.find(id);
    if (it == impl_->calls.end())
        return;
    auto call = it->second;
    impl_->done_cv.wait(lk, [&] { return call->done; });
    impl_->reap(lk);
}

ChatBackendStatus RemoteBackend::status() const {
    ChatBackendStatus s;
    s.kind = "remote";
    s.model = impl_->options.model;
    s.endpoint = impl_->endpoint ? impl_->endpoint->display() : impl_->options.base_url;
    std::lock_guard lk(impl_->m);
    s.running = impl_->running;
    s.last = impl_->last;
    return s;
}

} // namespace folio
