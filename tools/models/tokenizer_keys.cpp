#include "model_plans.h"

namespace folio::tools {

void write_tokenizer(gguf::Writer& w, const Vocab& v) {
    w.set_string("tokenizer.ggml.model", "gpt2");
    w.set_string("tokenizer.ggml.pre", "kimi-k2");
    w.set_string_array("tokenizer.ggml.tokens", v.tokens);
    w.set_int_array("tokenizer.ggml.token_type", gguf::ValueType::I32,
                    std::vector<int64_t>(v.token_types.begin(), v.token_types.end()));
    w.set_string_array("tokenizer.ggml.merges", v.merges);
    w.set_u32("tokenizer.ggml.bos_token_id", v.bos_id);
    w.set_u32("tokenizer.ggml.eos_token_id", v.eos_id);
    w.set_u32("tokenizer.ggml.padding_token_id", v.pad_id);
    w.set_u32("tokenizer.ggml.unknown_token_id", v.unk_id);
    w.set_bool("tokenizer.ggml.add_bos_token", true);
    w.set_bool("tokenizer.ggml.add_eos_token", false);
    // Contains the marker llama.cpp uses to pick its built-in "kimi-k2" template
    // (src/llama-chat.cpp).
    w.set_string(
        "tokenizer.chat_template",
        "{%- for message in messages -%}"
        "{%- if message['role'] == 'system' -%}<|im_system|>system<|im_middle|>"
        "{%- elif message['role'] == 'user' -%}<|im_user|>user<|im_middle|>"
        "{%- else -%}<|im_assistant|>assistant<|im_middle|>{%- endif -%}"
        "{{ message['content'] }}<|im_end|>{%- endfor -%}"
        "{%- if add_generation_prompt -%}<|im_assistant|>assistant<|im_middle|>{%- endif -%}");
}

} // namespace folio::tools
