#include "serve/api_error.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

namespace folio::serve {

const char* error_type_for_status(int status) {
    switch (status) {
    case 401:
        return "authentication_error";
    case 404:
        return "not_found_error";
    default:
        return status >= 500 ? "server_error" : "invalid_request_error";
    }
}

std::string api_error_json(int status, const std::string& message, const std::string& param) {
    nlohmann::json e = {{"message", message},
                        {"type", error_type_for_status(status)},
                        {"param", param.empty() ? nlohmann::json() : nlohmann::json(param)},
                        {"code", status}};
    return nlohmann::json{{"error", e}}.dump(-1, ' ', false,
                                             nlohmann::json::error_handler_t::replace);
}

void set_api_error(httplib::Response& res, int status, const std::string& message,
                   const std::string& param) {
    res.status = status;
    res.set_content(api_error_json(status, message, param), "application/json");
}

} // namespace folio::serve
