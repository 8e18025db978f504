#include "tokenizer/chat_template.h"

#include "tokenizer/media_prompt.h"

#include <array>

namespace folio::tokenizer {

namespace {

Error bad_role(const std::string& role, size_t index) {
    return make_error(ErrorCode::InvalidArgument, "chat template: message " +
                                                      std::to_string(index) + " has role '" + role +
                                                      "' (expected system, user, assistant or "
                                                      "tool)");
}

// One image as Kimi-VL's template writes it; the runtime puts the image's rows in place of
// the placeholder (as llama.cpp's tools/mtmd/mtmd.cpp does).
std::string kimi_image() {
    return std::string(kKimiMediaStart) + std::string(kKimiImagePlaceholder) +
           std::string(kKimiMediaEnd);
}

int media_markers(std::string_view content) {
    int n = 0;
    for (size_t at = content.find(kMediaMarker); at != std::string_view::npos;
         at = content.find(kMediaMarker, at + kMediaMarker.size()))
        ++n;
    return n;
}

// The content with each `<__media__>` marker replaced by an image, in order: Kimi-VL's
// template writes a message's image items among its text items where they stand, so a
// scanned page can sit inside its page marker (issue #23).
std::string images_at_markers(std::string_view content) {
    std::string out;
    size_t from = 0;
    for (size_t at = content.find(kMediaMarker); at != std::string_view::npos;
         at = content.find(kMediaMarker, from)) {
        out.append(content.substr(from, at - from));
        out += kimi_image();
        from = at + kMediaMarker.size();
    }
    out.append(content.substr(from));
    return out;
}

// Kimi-K2 (llama.cpp's src/llama-chat.cpp; tool calls and tool_declare from Kimi-K2's template):
//   <|im_{system,user,assistant}|>{role}<|im_middle|>{content}<|im_end|>, tool results as
//   <|im_system|>tool<|im_middle|>..., generation prompt <|im_assistant|>assistant<|im_middle|>.
Expected<std::string> render_kimi(bool vision, const std::vector<ChatMessage>& messages,
                                  bool add_generation_prompt, const ChatOptions& options) {
    std::string out;
    if (!options.tools_json.empty())
        out += "<|im_system|>tool_declare<|im_middle|>" + options.tools_json + "<|im_end|>";
    size_t call_index = 0;
    for (size_t i = 0; i < messages.size(); ++i) {
        const ChatMessage& m = messages[i];
        const bool inline_images = m.n_images > 0 && media_markers(m.content) == m.n_images;
        if (m.n_images < 0 ||
            (m.n_images > 0 &&
             (!vision || (m.role != "user" && !(inline_images && m.role == "system")))))
            return make_error(ErrorCode::InvalidArgument,
                              "chat template: message " + std::to_string(i) + " has " +
                                  std::to_string(m.n_images) +
                                  " images; only user messages of the kimi-vl template take "
                                  "images (system messages: at <__media__> markers)");
        if (!m.tool_calls.empty() && m.role != "assistant")
            return make_error(ErrorCode::InvalidArgument,
                              "chat template: message " + std::to_string(i) +
                                  " has tool calls but is not an assistant message");
        if (m.role == "system") {
            out += "<|im_system|>system<|im_middle|>";
        } else if (m.role == "user") {
            out += "<|im_user|>user<|im_middle|>";
            for (int k = 0; k < m.n_images && !inline_images; ++k)
                out += kimi_image();
        } else if (m.role == "assistant") {
            out += "<|im_assistant|>assistant<|im_middle|>";
        } else if (m.role == "tool") {
            out += "<|im_system|>tool<|im_middle|>";
        } else {
            return bad_role(m.role, i);
        }
        out += inline_images ? images_at_markers(m.content) : m.content;
        if (!m.tool_calls.empty()) {
            out += "<|tool_calls_section_begin|>";
            for (const ToolCall& c : m.tool_calls) {
                const std::string id =
                    c.id.empty() ? "functions." + c.name + ":" + std::to_string(call_index) : c.id;
                ++call_index;
                out += "<|tool_call_begin|>" + id + "<|tool_call_argument_begin|>" + c.arguments +
                       "<|tool_call_end|>";
            }
            out += "<|tool_calls_section_end|>";
        }
        out += "<|im_end|>";
    }
    if (add_generation_prompt)
        out += "<|im_assistant|>assistant<|im_middle|>";
    return out;
}

// DeepSeek-V3, after the `tokenizer.chat_template` of deepseek-v3-vocab.gguf: system prompts
// first (joined by a blank line), then <｜User｜>{content} and
// <｜Assistant｜>{content}<｜end▁of▁sentence｜>; tool calls and tool outputs with their markers.
// Two fixes over that Jinja text (as in DeepSeek's later V3 templates): a tool-call section is
// always closed with <｜tool▁calls▁end｜><｜end▁of▁sentence｜> and each assistant message opens
// its own section; each run of tool outputs opens with <｜tool▁outputs▁begin｜>.
Expected<std::string> render_deepseek_v3(const std::vector<ChatMessage>& messages,
                                         bool add_generation_prompt) {
    std::string out;
    bool first_system = true;
    for (const ChatMessage& m : messages) {
        if (m.role == "system") {
            if (!first_system)
                out += "\n\n";
            out += m.content;
            first_system = false;
        }
    }
    bool in_tool_outputs = false;
    for (size_t i = 0; i < messages.size(); ++i) {
        const ChatMessage& m = messages[i];
        if (m.n_images != 0)
            return make_error(ErrorCode::InvalidArgument,
                              "chat template: the deepseek-v3 template takes no images (message " +
                                  std::to_string(i) + ")");
        if (!m.tool_calls.empty() && m.role != "assistant")
            return make_error(ErrorCode::InvalidArgument,
                              "chat template: message " + std::to_string(i) +
                                  " has tool calls but is not an assistant message");
        if (m.role == "system")
            continue;
        if (m.role == "user") {
            in_tool_outputs = false;
            out += "<｜User｜>" + m.content;
        } else if (m.role == "assistant" && !m.tool_calls.empty()) {
            in_tool_outputs = false;
            out += "<｜Assistant｜>" + m.content + "<｜tool▁calls▁begin｜>";
            for (size_t k = 0; k < m.tool_calls.size(); ++k) {
                const ToolCall& c = m.tool_calls[k];
                if (k > 0)
                    out += "\n";
                out += "<｜tool▁call▁begin｜>function<｜tool▁sep｜>" + c.name + "\n```json\n" +
                       c.arguments + "\n```<｜tool▁call▁end｜>";
            }
            out += "<｜tool▁calls▁end｜><｜end▁of▁sentence｜>";
        } else if (m.role == "assistant") {
            if (in_tool_outputs)
                out += "<｜tool▁outputs▁end｜>" + m.content + "<｜end▁of▁sentence｜>";
            else
                out += "<｜Assistant｜>" + m.content + "<｜end▁of▁sentence｜>";
            in_tool_outputs = false;
        } else if (m.role == "tool") {
            if (!in_tool_outputs)
                out += "<｜tool▁outputs▁begin｜>";
            else
                out += "\n";
            out += "<｜tool▁output▁begin｜>" + m.content + "<｜tool▁output▁end｜>";
            in_tool_outputs = true;
        } else {
            return bad_role(m.role, i);
        }
    }
    if (in_tool_outputs)
        out += "<｜tool▁outputs▁end｜>";
    else if (add_generation_prompt)
        out += "<｜Assistant｜>";
    return out;
}

struct TemplateName {
    std::string_view name;
    TemplateKind kind;
};

constexpr std::array kTemplateNames = {
    TemplateName{"kimi-k2", TemplateKind::KimiK2},
    TemplateName{"kimi-vl", TemplateKind::KimiVL},
    TemplateName{"deepseek3", TemplateKind::DeepSeekV3},
    TemplateName{"deepseek-v3", TemplateKind::DeepSeekV3},
};

} // namespace

Expected<std::string> apply_chat_template(TemplateKind kind,
                                          const std::vector<ChatMessage>& messages,
                                          bool add_generation_prompt, const ChatOptions& options) {
    switch (kind) {
    case TemplateKind::KimiK2:
        return render_kimi(false, messages, add_generation_prompt, options);
    case TemplateKind::KimiVL:
        return render_kimi(true, messages, add_generation_prompt, options);
    case TemplateKind::DeepSeekV3:
        if (!options.tools_json.empty())
            return make_error(ErrorCode::Unsupported,
                              "chat template: deepseek-v3 has no tool declaration block");
        return render_deepseek_v3(messages, add_generation_prompt);
    }
    return make_error(ErrorCode::Internal, "chat template: unknown kind");
}

std::optional<TemplateKind> template_from_name(std::string_view name) {
    for (const TemplateName& t : kTemplateNames)
        if (t.name == name)
            return t.kind;
    return std::nullopt;
}

std::string_view template_name(TemplateKind kind) {
    for (const TemplateName& t : kTemplateNames)
        if (t.kind == kind)
            return t.name;
    return "?";
}

Expected<TemplateKind> detect_chat_template(std::string_view chat_template,
                                            std::string_view pre_name) {
    auto has = [&](std::string_view s) { return chat_template.find(s) != std::string_view::npos; };
    if (has("<|im_assistant|>assistant<|im_middle|>"))
        return has("<|media_start|>") || has("<|media_pad|>") ? TemplateKind::KimiVL
                                                              : TemplateKind::KimiK2;
    if (has("<｜Assistant｜>") && has("<｜User｜>") && has("<｜end▁of▁sentence｜>"))
        return TemplateKind::DeepSeekV3;
    if (chat_template.empty()) {
        if (pre_name == "kimi-k2")
            return TemplateKind::KimiK2;
        if (pre_name == "deepseek-v3")
            return TemplateKind::DeepSeekV3;
    }
    return make_error(ErrorCode::Unsupported,
                      "chat template: tokenizer.chat_template matches none of kimi-k2, kimi-vl, "
                      "deepseek-v3 (pre-tokenizer '" +
                          std::string(pre_name) + "'); choose one by name");
}

} // namespace folio::tokenizer
