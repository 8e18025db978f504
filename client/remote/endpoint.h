#pragma once
// The address of an OpenAI-compatible server, from what a user types: "http://host:8000",
// "http://host:8000/v1", "https://api.example.com/v1/" all work.

#include "folio/error.h"

#include <string>
#include <string_view>

namespace folio::remote {

struct Endpoint {
    std::string scheme_host_port; // "http://host:8000" (what cpp-httplib's Client takes)
    std::string prefix;           // "/v1": path before /chat/completions, /models, ...
    bool tls = false;
    std::string display() const { return scheme_host_port + prefix; }
};

Expected<Endpoint> parse_endpoint(std::string_view url);

} // namespace folio::remote
