#include "remote/endpoint.h"

namespace folio::remote {

Expected<Endpoint> parse_endpoint(std::string_view url) {
    Endpoint e;
    std::string_view rest;
    if (url.substr(0, 7) == "http://") {
        rest = url.substr(7);
    } else if (url.substr(0, 8) == "https://") {
        rest = url.substr(8);
        e.tls = true;
    } else {
        return make_error(ErrorCode::InvalidArgument,
                          "server URL must start with http:// or https://: " + std::string(url));
    }
    const size_t slash = rest.find('/');
    const std::string_view authority = rest.substr(0, slash);
    if (authority.empty() || authority.find('@') != std::string_view::npos)
        return make_error(ErrorCode::InvalidArgument,
                          "server URL needs a host (and no user:password@): " + std::string(url));
    e.scheme_host_port =
        std::string(url.substr(0, url.size() - rest.size())) + std::string(authority);
    std::string path = slash == std::string_view::npos ? "" : std::string(rest.substr(slash));
    while (!path.empty() && path.back() == '/')
        path.pop_back();
    e.prefix = path.empty() ? "/v1" : path;
    return e;
}

} // namespace folio::remote
