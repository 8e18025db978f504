#pragma once
// JSON request bodies for the server tests.

#include <string>
#include <utility>
#include <vector>

namespace folio::test {

// Malformed chat / completion bodies and the "param" the server must name for each.
std::vector<std::pair<std::string, std::string>> badRequestBodies();
// {"messages":[{"role":"user","content":CONTENT}]} (CONTENT must need no escaping).
std::string chatBody(const std::string& content);

} // namespace folio::test
