#pragma once
// Chat templates rendered in C++ (no Jinja engine): the Kimi-K2 / Kimi-Linear skeleton of
// llama.cpp's built-in `kimi-k2` template (src/llama-chat.cpp), its Kimi-VL variant with image
// placeholders (the template of Kimi-VL's Hugging Face release), and DeepSeek-V3
// (the `tokenizer.chat_template` of deepseek-v3-vocab.gguf).
//
// The rendered string never contains the bos token: tokenize it with add_special = true (bos
// per the vocabulary's add_bos_token, as llama.cpp does) and parse_special = true.

#include "folio/error.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace folio::tokenizer {

enum class TemplateKind {
    KimiK2,     // Kimi-K2, Kimi-Linear (llama.cpp "kimi-k2")
    KimiVL,     // Kimi-K2 skeleton + one image placeholder per image
    DeepSeekV3, // DeepSeek-V3 / V3.2
};

struct ToolCall {
    std::string id;        // Kimi: "functions.{name}:{idx}" when empty (idx counts calls)
    std::string name;      // function name
    std::string arguments; // JSON text, written verbatim
};

struct ChatMessage {
    std::string role; // "system", "user", "assistant" or "tool"
    std::string content;
    // KimiVL only. User messages: the images open the message, or, when the content has
    // exactly n_images `<__media__>` markers, each stands at its marker (system messages too:
    // the scanned pages of a document prompt).
    int n_images = 0;
    std::vector<ToolCall> tool_calls; // assistant messages
};

struct ChatOptions {
    // Kimi: tool declarations (JSON text) rendered as a leading tool_declare turn.
    std::string tools_json;
};

// Kimi-VL: an image renders as kKimiMediaStart + kKimiImagePlaceholder + kKimiMediaEnd; the
// runtime replaces the single placeholder token by the image's embeddings (llama.cpp's mtmd
// layout: <|media_start|>, embeddings, <|media_end|>).
inline constexpr std::string_view kKimiMediaStart = "<|media_start|>";
inline constexpr std::string_view kKimiImagePlaceholder = "<|media_pad|>";
inline constexpr std::string_view kKimiMediaEnd = "<|media_end|>";

// Renders `messages`; with `add_generation_prompt` the text ends where the assistant's answer
// starts. Errors: unknown role, images where the template has no place for them.
Expected<std::string> apply_chat_template(TemplateKind kind,
                                          const std::vector<ChatMessage>& messages,
                                          bool add_generation_prompt,
                                          const ChatOptions& options = {});

// "kimi-k2", "kimi-vl", "deepseek3" / "deepseek-v3".
std::optional<TemplateKind> template_from_name(std::string_view name);
std::string_view template_name(TemplateKind kind);

// The template a model uses, from its `tokenizer.chat_template` text by the markers llama.cpp
// looks for (Kimi: "<|im_assistant|>assistant<|im_middle|>", Kimi-VL when media tokens appear
// too; DeepSeek-V3: "<｜User｜>", "<｜Assistant｜>" and "<｜end▁of▁sentence｜>"); without a
// template, from the pre-tokenizer name ("kimi-k2", "deepseek-v3"). Unsupported otherwise.
Expected<TemplateKind> detect_chat_template(std::string_view chat_template,
                                            std::string_view pre_name);

} // namespace folio::tokenizer
