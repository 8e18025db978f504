// folio-cli tokenize -m FILE.gguf (--text T | --text-file F) [--no-special] [--no-bos]: the
// token ids of a text with the model's tokenizer (engine/tokenizer), comma-separated on one line.
#include "cli/args.h"
#include "cli/commands.h"

#include "gguf/gguf_file.h"
#include "tokenizer/tokenizer.h"

#include <cstdio>
#include <fstream>
#include <iterator>

namespace folio::cli {

int cmd_tokenize(std::vector<std::string> args) {
    const Command& self = *find_command("tokenize");
    Args a(std::move(args));
    if (a.take_switch("--help") || a.take_switch("-h")) {
        std::printf("usage: folio-cli %s\n"
                    "  -m, --model F      GGUF file with the tokenizer.* keys\n"
                    "  --text T           text to tokenize (taken byte for byte)\n"
                    "  --text-file F      read the text from a file instead\n"
                    "  --no-special       special-token strings stay plain text\n"
                    "  --no-bos           do not add bos (otherwise as add_bos_token says)\n",
                    self.synopsis);
        return 0;
    }
    const auto model = a.take_value("--model", "-m");
    const auto text_arg = a.take_value("--text");
    const auto text_file = a.take_value("--text-file");
    const bool parse_special = !a.take_switch("--no-special");
    const bool add_special = !a.take_switch("--no-bos");
    const auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);
    if (!model)
        return usage_error(self, "-m FILE.gguf is required");
    if (text_arg.has_value() == text_file.has_value())
        return usage_error(self, "give exactly one of --text and --text-file");

    std::string text;
    if (text_arg) {
        text = *text_arg;
    } else {
        std::ifstream in(*text_file, std::ios::binary);
        if (!in)
            return fail("cannot read " + *text_file);
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }

    auto file = gguf::File::open(*model);
    if (!file)
        return fail(file.error().to_string());
    auto tok = tokenizer::Tokenizer::from_gguf(**file);
    if (!tok)
        return fail(tok.error().to_string());
    auto ids = tok->encode(text, add_special, parse_special);
    if (!ids)
        return fail(ids.error().to_string());
    std::string line;
    for (size_t i = 0; i < ids->size(); ++i) {
        if (i > 0)
            line += ", ";
        line += std::to_string((*ids)[i]);
    }
    std::printf("%s\n", line.c_str());
    return 0;
}

} // namespace folio::cli
