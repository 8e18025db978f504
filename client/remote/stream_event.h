#pragma once
// One event of an OpenAI stream (the JSON after "data: "), or a whole non-streamed answer, read
// into what RemoteBackend needs: the text delta, token ids (when the server sends them), the
// finish reason, usage and an error object.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace folio::remote {

// One piece of a structured tool call (choices[0].delta.tool_calls[i], or a whole call of
// message.tool_calls): the pieces of one `index` are concatenated in arrival order.
struct ToolCallDelta {
    int index = 0;
    std::string id, name, arguments;
};

struct StreamEvent {
    bool done_marker = false; // "data: [DONE]"
    std::string text;         // delta.content (chat) or text (completions)
    std::vector<int32_t> token_ids;
    std::vector<ToolCallDelta> tool_calls;
    std::string finish_reason; // "" while running
    std::optional<int64_t> prompt_tokens, completion_tokens, cached_tokens;
    std::string error; // an {"error": ...} event: its message
};

// False when `data` is not JSON (the error is then in ev.error).
bool parse_stream_event(std::string_view data, StreamEvent& ev);

// The message of an OpenAI-style error body ({"error": {"message": ...}} or {"detail": ...},
// as FastAPI servers answer), else the body itself cut to 300 bytes.
std::string error_message_of(std::string_view body);

} // namespace folio::remote
