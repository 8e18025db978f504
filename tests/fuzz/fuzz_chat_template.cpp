// The chat-template renderer: conversations built from the input bytes (roles, contents with
// marker-like text, images, tool calls, tool declarations) render or give an error, for every
// template kind.
#include "tokenizer/chat_template.h"

#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2)
        return 0;
    using namespace folio::tokenizer;
    const TemplateKind kinds[] = {TemplateKind::KimiK2, TemplateKind::KimiVL,
                                  TemplateKind::DeepSeekV3};
    const TemplateKind kind = kinds[data[0] % 3];
    const char* roles[] = {"system", "user", "assistant", "tool", "bogus"};
    std::vector<ChatMessage> msgs;
    ChatOptions opt;
    size_t i = 1;
    while (i < size) {
        const uint8_t ctl = data[i++];
        size_t end = i;
        while (end < size && data[end] != 0)
            ++end;
        const std::string text(reinterpret_cast<const char*>(data + i), end - i);
        i = end + 1;
        if ((ctl & 0xF0) == 0xF0) {
            opt.tools_json = text;
            continue;
        }
        ChatMessage m;
        m.role = roles[ctl % 5];
        m.content = text;
        m.n_images = (ctl >> 3) & 3;
        if (ctl & 0x20)
            m.tool_calls.push_back({(ctl & 0x40) ? "" : text, "fn", text});
        msgs.push_back(std::move(m));
    }
    (void)apply_chat_template(kind, msgs, data[0] & 0x80, opt);
    return 0;
}
