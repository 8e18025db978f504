#include "remote/sse_parser.h"

namespace folio::remote {

void SseParser::feed(std::string_view bytes, std::vector<std::string>& events) {
    for (char c : bytes) {
        if (c == '\n' && last_cr_) { // the \n of a \r\n pair
            last_cr_ = false;
            continue;
        }
        last_cr_ = c == '\r';
        if (c == '\n' || c == '\r') {
            line(line_, events);
            line_.clear();
        } else {
            line_ += c;
        }
    }
}

void SseParser::line(std::string_view l, std::vector<std::string>& events) {
    if (l.empty()) { // a blank line ends the event
        if (has_data_)
            events.push_back(std::move(data_));
        data_.clear();
        has_data_ = false;
        return;
    }
    if (l.front() == ':')
        return;
    const size_t colon = l.find(':');
    const std::string_view field = l.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? "" : l.substr(colon + 1);
    if (!value.empty() && value.front() == ' ')
        value.remove_prefix(1);
    if (field != "data")
        return;
    if (has_data_)
        data_ += '\n';
    data_ += value;
    has_data_ = true;
}

} // namespace folio::remote
