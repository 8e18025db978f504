#pragma once
// A conversation's messages as the engine reads them: text, attached images and the tool calls
// an assistant made. Plain data, std only; folio/engine.h (requests) and folio/agent.h (tool
// turns) both speak it.

#include <cstdint>
#include <string>
#include <vector>

namespace folio {

// An image attached to a message: a file (PNG, JPEG, BMP, GIF) or raw RGB8 pixels (e.g. a
// rendered PDF page).
struct ImageInput {
    std::string path;
    int width = 0, height = 0;
    std::vector<uint8_t> rgb; // width * height * 3 bytes when path is empty
};

// A call of a tool the model made (assistant messages; see folio/agent.h).
struct ToolCallInfo {
    std::string id;        // e.g. "functions.sql_query:0" (Kimi); "" : made from name and index
    std::string name;      // the function
    std::string arguments; // JSON text
};

struct Message {
    std::string role; // system | user | assistant | tool
    std::string content;
    std::vector<ImageInput> images;       // user turns, and system turns that carry scanned pages;
                                          // read with a vision projector (ModelSpec::mmproj)
    std::vector<ToolCallInfo> tool_calls; // assistant messages that called tools
};

} // namespace folio
