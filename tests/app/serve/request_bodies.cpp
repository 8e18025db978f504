// Request bodies of the remote tests, kept out of test_remote.cpp: moc does not read raw string
// literals.
#include "app/serve/request_bodies.h"

namespace folio::test {

std::vector<std::pair<std::string, std::string>> badRequestBodies() {
    return {
        {R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":"ten"})", "max_tokens"},
        {R"({"messages":[{"role":"user","content":"hi"}],"temperature":9})", "temperature"},
        {R"({"messages":[{"role":"wizard","content":"hi"}]})", "messages[0].role"},
        {R"({"messages":[]})", "messages"},
        {R"({"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}]}]})",
         "messages[0].content[0]"}, // no projector loaded
        {R"({"prompt":[1,-5]})", "prompt"},
    };
}

std::string chatBody(const std::string& content) {
    return R"({"messages":[{"role":"user","content":")" + content + R"("}]})";
}

} // namespace folio::test
