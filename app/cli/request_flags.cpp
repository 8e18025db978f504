#include "cli/request_flags.h"

#include "cli/token_list.h"

#include <algorithm>
#include <climits>

namespace folio::cli {

Sampling cli_default_sampling() {
    Sampling s; // penalties off, seed 0
    s.temperature = 0.8f;
    s.top_k = 0;
    s.top_p = 1.0f;
    s.min_p = 0.0f;
    return s;
}

RequestFlags take_request_flags(Args& a, unsigned groups) {
    RequestFlags f;
    if (groups & kPromptFlags) {
        f.prompt = a.take_value("-p", "--prompt");
        f.tokens = a.take_value("--tokens");
    }
    if (groups & kChatFlags) {
        f.system = a.take_value("--system");
        f.chat = a.take_switch("--chat");
    }
    if (groups & kImageFlags) {
        f.mmproj = a.take_value("--mmproj");
        while (auto img = a.take_value("--image"))
            f.images.push_back(*img);
    }
    if (groups & kLengthFlags) {
        if (auto n = a.take_int("-n", "--n-predict"))
            f.max_tokens = *n;
        while (auto s = a.take_value("--stop"))
            f.stop.push_back(*s);
        f.ignore_eos = a.take_switch("--ignore-eos");
    }
    Sampling& s = f.sampling;
    if (groups & kSamplingFlags) {
        if (auto v = a.take_double("--temp"))
            s.temperature = static_cast<float>(*v);
        if (auto v = a.take_int("--seed"))
            s.seed = static_cast<uint64_t>(*v);
        if (auto v = a.take_int("--top-k"))
            s.top_k = static_cast<int>(*v);
        if (auto v = a.take_double("--top-p"))
            s.top_p = static_cast<float>(*v);
        if (auto v = a.take_double("--min-p"))
            s.min_p = static_cast<float>(*v);
    }
    if (groups & kPenaltyFlags) {
        if (auto v = a.take_double("--repeat-penalty"))
            s.repetition_penalty = static_cast<float>(*v);
        if (auto v = a.take_double("--presence-penalty"))
            s.presence_penalty = static_cast<float>(*v);
    }
    return f;
}

std::string check_request_flags(const RequestFlags& f, const std::string& prefill_only_use) {
    // A document prefix read ahead: --chat --system S -n 0, no question.
    const bool system_prefix = f.chat && f.system && !f.prompt && !f.tokens && f.max_tokens == 0 &&
                               !prefill_only_use.empty();
    if (f.prompt.has_value() == f.tokens.has_value() && !system_prefix)
        return "exactly one of -p / --tokens is required";
    if (f.chat && !f.prompt && !system_prefix)
        return "--chat needs -p (or --system S with -n 0: the system turn read ahead)";
    if (!f.images.empty() && (!f.mmproj || !f.prompt))
        return "--image needs --mmproj and -p";
    if (!f.images.empty() && f.chat)
        return "--image works with -p, not with --chat";
    if (f.mmproj && f.images.empty())
        return "--mmproj needs at least one --image";
    if (f.max_tokens == 0 && !prefill_only_use.empty())
        return {}; // prefill only: the prompt is read into the cache, nothing is generated
    if (f.max_tokens < 1)
        return "-n must be at least 1";
    return {};
}

bool make_request(const RequestFlags& f, Request& r, std::string& err) {
    if (f.tokens) {
        auto ids = parse_token_list(*f.tokens, &err);
        if (!ids)
            return false;
        r.prompt_tokens = std::move(*ids);
    } else if (f.chat) {
        if (f.system)
            r.messages.push_back({"system", *f.system, {}, {}});
        if (f.prompt)
            r.messages.push_back({"user", *f.prompt, {}, {}});
        else // the system turn alone, as a token prefix of later {system, user} prompts
            r.generation_prompt = false;
    } else {
        r.prompt_text = f.prompt.value_or(""); // BOS per the vocabulary, special tokens parsed
        for (const std::string& path : f.images)
            r.images.push_back(ImageInput{path, 0, 0, {}});
    }
    r.max_tokens = static_cast<int>(std::min<long long>(f.max_tokens, INT_MAX));
    r.stop = f.stop;
    r.ignore_eos = f.ignore_eos;
    r.sampling = f.sampling;
    return true;
}

} // namespace folio::cli
