#pragma once
// Server-sent events (the text/event-stream format): bytes in, in whatever pieces the network
// delivers them; complete events out. Only the "data" field matters to OpenAI streams; comments
// (": keep-alive") and other fields are skipped. Lines may end in \n, \r\n or \r.

#include <string>
#include <string_view>
#include <vector>

namespace folio::remote {

class SseParser {
public:
    // Appends the data of every event completed by `bytes` to `events` (multi-line data joined
    // with '\n').
    void feed(std::string_view bytes, std::vector<std::string>& events);
    // Bytes received but not yet part of a complete event.
    bool has_partial() const { return !line_.empty() || has_data_; }

private:
    void line(std::string_view l, std::vector<std::string>& events);
    std::string line_;
    std::string data_;
    bool has_data_ = false;
    bool last_cr_ = false;
};

} // namespace folio::remote
