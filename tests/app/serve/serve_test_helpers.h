#pragma once
// What the server suites share: a request's outcome collected through its callbacks, greedy
// requests, RemoteBackend options for the test server, and raw HTTP on a loopback socket (for
// what an HTTP client library would not send: no body, no Content-Length, other methods).
#include "folio/chat_backend.h"
#include "folio/engine.h"
#include "folio/remote_backend.h"

#include <httplib.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace folio::test {

inline const char* kKey = "test-key-123";

struct Outcome {
    std::vector<int32_t> ids;
    std::string text; // concatenated on_token text
    RequestStats stats;
    std::string error;
    int done_calls = 0;
};

// Installs callbacks that fill `out` (guarded by `mu`); `first` fires at the first token.
inline void collect(Request& r, Outcome& out, std::mutex& mu, std::promise<void>* first = nullptr) {
    auto fired = std::make_shared<std::atomic<bool>>(false);
    r.callbacks.on_token = [&out, &mu, first, fired](std::string_view t, int32_t id) {
        {
            std::lock_guard lk(mu);
            if (id >= 0)
                out.ids.push_back(id);
            out.text += t;
        }
        if (first && !fired->exchange(true))
            first->set_value();
    };
    r.callbacks.on_error = [&out, &mu](const Error& e) {
        std::lock_guard lk(mu);
        out.error = e.to_string();
    };
    r.callbacks.on_done = [&out, &mu](const RequestStats& s) {
        std::lock_guard lk(mu);
        out.stats = s;
        ++out.done_calls;
    };
}

inline Outcome run(ChatBackend& b, Request r) {
    Outcome out;
    std::mutex mu;
    collect(r, out, mu);
    b.wait(b.submit(std::move(r)));
    std::lock_guard lk(mu);
    return out;
}

inline Request greedy(int n) {
    Request r;
    r.max_tokens = n;
    r.ignore_eos = true;
    r.sampling.temperature = 0;
    r.sampling.top_k = 0;
    r.sampling.top_p = 1;
    r.sampling.min_p = 0;
    return r;
}

inline RemoteOptions remoteOptions(const std::string& url, const std::string& key = kKey) {
    RemoteOptions o;
    o.base_url = url;
    o.api_key = key;
    o.model = "ds2-lite";
    o.token_ids = true;
    o.read_timeout_s = 30;
    return o;
}

// A loopback port nobody listens on: bound once by the system's choice, then closed.
inline int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

struct RawReply {
    int status = 0;
    httplib::Headers headers; // names as sent
    std::string body;
    std::string error;
};

// Writes each request byte for byte to one connection to 127.0.0.1:port and reads its response
// (headers, then a body of its Content-Length) before writing the next, leaving the connection
// open while it waits: a server that waited for more of a request would keep it waiting until
// the 30 s receive timeout, and one that left part of a request unread would misread the next.
inline std::vector<RawReply> rawHttpOnOneConnection(int port,
                                                    const std::vector<std::string>& requests) {
    std::vector<RawReply> replies;
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    timeval tv{30, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<uint16_t>(port));
    const bool connected = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    for (const std::string& request : requests) {
        RawReply& out = replies.emplace_back();
        if (!connected || ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) !=
                              static_cast<ssize_t>(request.size())) {
            out.error = "cannot connect or send";
            break;
        }
        std::string got;
        size_t head_end = std::string::npos;
        size_t need = 0;
        char buf[4096];
        while (head_end == std::string::npos || got.size() < head_end + 4 + need) {
            const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
            if (n <= 0)
                break;
            got.append(buf, static_cast<size_t>(n));
            if (head_end != std::string::npos ||
                (head_end = got.find("\r\n\r\n")) == std::string::npos)
                continue;
            size_t line = got.find("\r\n") + 2;
            while (line < head_end) {
                const size_t eol = got.find("\r\n", line);
                const std::string h = got.substr(line, eol - line);
                const size_t colon = h.find(':');
                std::string value = h.substr(colon + 1);
                value.erase(0, value.find_first_not_of(' '));
                out.headers.emplace(h.substr(0, colon), value);
                line = eol + 2;
            }
            auto cl = out.headers.find("Content-Length");
            need = cl == out.headers.end() || request.rfind("HEAD ", 0) == 0
                       ? 0
                       : std::stoul(cl->second); // a HEAD reply says the length, sends no body
        }
        if (head_end == std::string::npos || got.compare(0, 9, "HTTP/1.1 ") != 0) {
            out.error = "no HTTP response: '" + got + "'";
            break;
        }
        out.status = std::stoi(got.substr(9, 3));
        out.body = got.substr(head_end + 4);
    }
    ::close(fd);
    return replies;
}

inline RawReply rawHttp(int port, const std::string& request) {
    return rawHttpOnOneConnection(port, {request}).front();
}

inline double metricValue(const std::string& text, const std::string& name) {
    const size_t at = text.find("\n" + name + " ");
    return at == std::string::npos ? -1.0 : std::stod(text.substr(at + name.size() + 2));
}

} // namespace folio::test
