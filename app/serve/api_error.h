#pragma once
// OpenAI-style error bodies: {"error": {"message", "type", "param", "code"}}, the shape every
// OpenAI client library knows how to show.

#include <string>

namespace httplib {
struct Response;
}

namespace folio::serve {

// "invalid_request_error" (400, 405, 413), "authentication_error" (401), "not_found_error" (404),
// "server_error" (5xx).
const char* error_type_for_status(int status);

std::string api_error_json(int status, const std::string& message, const std::string& param = {});

// Sets status, the JSON body and its content type.
void set_api_error(httplib::Response& res, int status, const std::string& message,
                   const std::string& param = {});

} // namespace folio::serve
