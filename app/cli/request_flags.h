#pragma once
// The flags that make a folio::Request, shared by `generate` (embedded and --remote) and `logits`:
// the prompt (-p / --tokens, --chat / --system, --mmproj / --image), its length (-n, --stop,
// --ignore-eos) and the sampling (--temp, --seed, --top-k, --top-p, --min-p, --repeat-penalty,
// --presence-penalty). The CLI's sampling defaults live here and nowhere else.

#include "cli/args.h"
#include "folio/engine.h"

#include <optional>
#include <string>
#include <vector>

namespace folio::cli {

// Which flags a command takes; the others stay in Args and are refused as unknown options.
enum RequestFlagGroup : unsigned {
    kPromptFlags = 1u << 0,   // -p / --prompt TEXT, --tokens 1,2,3
    kChatFlags = 1u << 1,     // --chat, --system S
    kImageFlags = 1u << 2,    // --mmproj P.gguf, --image I.png (repeatable)
    kLengthFlags = 1u << 3,   // -n / --n-predict N, --stop S (repeatable), --ignore-eos
    kSamplingFlags = 1u << 4, // --temp, --seed, --top-k, --top-p, --min-p
    kPenaltyFlags = 1u << 5,  // --repeat-penalty, --presence-penalty
};

// folio-cli samples at temperature 0.8 without top-k / top-p / min-p truncation unless told
// otherwise; the penalties and the seed are folio::Sampling's defaults (off, seed 0).
Sampling cli_default_sampling();

struct RequestFlags {
    std::optional<std::string> prompt; // -p
    std::optional<std::string> tokens; // --tokens, not yet parsed
    std::optional<std::string> system;
    bool chat = false;
    std::optional<std::string> mmproj;
    std::vector<std::string> images;
    long long max_tokens = 64;
    std::vector<std::string> stop;
    bool ignore_eos = false;
    Sampling sampling = cli_default_sampling();
};

// Takes the flags of `groups` out of `a` (a malformed number sets a.error()).
RequestFlags take_request_flags(Args& a, unsigned groups);

// "" when the flags describe one prompt: exactly one of -p / --tokens, --chat with -p, --image
// with --mmproj and -p (and without --chat), --mmproj with an --image, -n at least 1 (or 0 when
// `prefill_only_use` names what a prompt read without an answer is for, e.g. "--save-snapshot";
// "" : -n 0 is refused).
std::string check_request_flags(const RequestFlags& f, const std::string& prefill_only_use = {});

// The request the flags describe (prompt, images, length, sampling); false with `err` set on a
// malformed --tokens list.
bool make_request(const RequestFlags& f, Request& r, std::string& err);

} // namespace folio::cli
