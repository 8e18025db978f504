#include "cli/commands.h"

#include <array>
#include <cstdio>

namespace folio::cli {

int cmd_bench(std::vector<std::string> args);
int cmd_bench_cache(std::vector<std::string> args);
int cmd_bench_doc_cache(std::vector<std::string> args);
int cmd_bench_kernels(std::vector<std::string> args);
int cmd_bench_ocr(std::vector<std::string> args);
int cmd_bench_remote(std::vector<std::string> args);
int cmd_bench_serve(std::vector<std::string> args);
int cmd_bench_tokenizer(std::vector<std::string> args);
int cmd_bench_vision(std::vector<std::string> args);
int cmd_check_figures(std::vector<std::string> args);
int cmd_export(std::vector<std::string> args);
int cmd_generate(std::vector<std::string> args);
int cmd_image_embd(std::vector<std::string> args);
int cmd_info(std::vector<std::string> args);
int cmd_logits(std::vector<std::string> args);
int cmd_make_model(std::vector<std::string> args);
int cmd_pages(std::vector<std::string> args);
int cmd_quantize(std::vector<std::string> args);
int cmd_report(std::vector<std::string> args);
int cmd_serve(std::vector<std::string> args);
int cmd_summarize(std::vector<std::string> args);
int cmd_sysinfo(std::vector<std::string> args);
int cmd_tokenize(std::vector<std::string> args);

namespace {

// Keep sorted by name. Later issues add: info, logits, tokenize, generate, bench, make-model,
// bench-kernels, quantize, summarize, serve.
const std::array kCommands = {
    Command{
        "bench",
        "bench -m F.gguf [-p 512] [-n 64] [-t 2] [-r 3] [--ctx 4096,32768] [--depth-prefill "
        "512] [--phases] [--mla auto|naive|absorbed] [--weights mapped|ram|auto] [CACHE FLAGS]   "
        "prefill/decode tokens per second",
        cmd_bench},
    Command{"bench-cache",
            "bench-cache -m F.gguf [-t 2] [--doc 32768] [--question 20] [-n 32] "
            "[--budget-fraction 0.1] [--offload-dir D] [--only ttft|snapshot|decode]   KV cache: "
            "prefix TTFT, decode under a RAM budget, snapshot MB/s",
            cmd_bench_cache},
    Command{
        "bench-doc-cache",
        "bench-doc-cache [-m F.gguf] [-t 2] [--doc 32768] [-n 8] [--dir D]   TTFT of a question "
        "about a long document after a restart (snapshot) vs cold; without -m a tiny model "
        "with a 64K context",
        cmd_bench_doc_cache},
    Command{"bench-kernels",
            "bench-kernels [-t N] [--rows R] [--cols C]   matvec GB/s vs memory bandwidth, GFLOP/s",
            cmd_bench_kernels},
    Command{"bench-ocr",
            "bench-ocr [--pages 4] [-t 2] [--lang auto|eng|chi_sim|eng+chi_sim]   OCR pages per "
            "second on generated scanned pages (English, Chinese) and character accuracy",
            cmd_bench_ocr},
    Command{"bench-remote",
            "bench-remote --remote URL --model NAME [--api-key K] [--clients 8] [--requests 20] "
            "[-n 8]   load test of an OpenAI-compatible server: latency percentiles",
            cmd_bench_remote},
    Command{"bench-serve",
            "bench-serve -m F.gguf [-t 2] [--bg-prefill 16384] [-n 128]   scheduler latency and "
            "speculation",
            cmd_bench_serve},
    Command{"bench-tokenizer",
            "bench-tokenizer -m F.gguf [--text-file F]   tokenizer MB/s and tokens/s (1 thread)",
            cmd_bench_tokenizer},
    Command{"bench-vision",
            "bench-vision [--mmproj P.gguf] [-t 2]   kimivl vision encode time of a 1280x720 "
            "screenshot",
            cmd_bench_vision},
    Command{"check-figures",
            "check-figures --answer ANSWER.md DOC.pdf|DOC.txt [DOC2...] [-o OUT.json]   each "
            "figure of an answer's cited sentences looked for on the page it cites",
            cmd_check_figures},
    Command{"export",
            "export CHAT.json -o OUT.pdf|.html|.md|.json [--model NAME]   a saved chat, as the "
            "workbench exports it",
            cmd_export},
    Command{
        "generate",
        "generate -m F.gguf (-p TEXT | --tokens 1,2,3) [-n N] [--temp T] [--seed S] [--top-k K] "
        "[--top-p P] [--min-p P] [--repeat-penalty R] [--stop S] [--chat] [--system S] [--ids] "
        "[--ignore-eos] [--spec off|lookup|draft:F.gguf] [--stats] [-c CTX] [-t N] "
        "[--mmproj P.gguf --image I.png ...] [--weights mapped|ram|auto] [CACHE FLAGS]   "
        "generate text (-n 0 --save-snapshot F: read the prompt only and save its cache; --chat "
        "--system S -n 0: the system turn "
        "alone, a prefix of later --chat --system S -p Q prompts)",
        cmd_generate},
    Command{"image-embd",
            "image-embd --mmproj P.gguf --image I.png [--dump OUT.f32] [-t N]   kimivl image "
            "embeddings (vision encoder + projector)",
            cmd_image_embd},
    Command{"info",
            "info FILE.gguf [--tensors]   architecture, sizes, parameters and metadata of a model",
            cmd_info},
    Command{"logits",
            "logits -m F.gguf (--tokens 1,2,3 | -p TEXT [--mmproj P.gguf --image I.png ...]) "
            "[--top K] [--dump OUT.f32] [--dump-last OUT.f32] [--seq] [-t N] "
            "[--mla auto|naive|absorbed] [CACHE FLAGS]   evaluate tokens, print the top logits",
            cmd_logits},
    Command{
        "make-model",
        "make-model --arch deepseek2|kimi-linear|deepseek32|kimi-hybrid|kimivl [--n-embd-text "
        "N] --preset tiny|small|bench --type f32|f16|q8_0|q4_k_m|mxfp4-moe "
        "--seed N [--confident] [--context N] --out F.gguf   random-weights test model (--context: "
        "the context_length written instead of the preset's; --confident: output "
        "head = token embeddings / sqrt(n_embd), block output projections at 3/4 scale, so the "
        "residual keeps the input token's direction and predictions have clear margins)",
        cmd_make_model},
    Command{"pages",
            "pages DOC.pdf [--pages 3-7] [--ocr auto|always|off] [--lang auto|eng+chi_sim] "
            "[-t 2] [--cache-dir D] [--no-cache] [--quiet]   each page's text and where it came "
            "from (text layer, or OCR with its mean confidence)",
            cmd_pages},
    Command{
        "quantize",
        "quantize IN.gguf OUT.gguf --recipe q8_0|q4_k_m|q5_k_m|q6_k|q3_k_m|iq4_xs|q4_k|mxfp4-moe|"
        "RECIPE_FILE [-t N]   per-module quantization (recipe file: 'pattern = type' lines)",
        cmd_quantize},
    Command{
        "report",
        "report --template equity-note|policy-brief|comparison|FILE DOC.pdf [DOC2.pdf] [IMG*] "
        "-m F.gguf [--mmproj P] | --remote URL --model NAME   -o O.pdf|.odt|.html|.md "
        "[--data F.csv,G.csv|F.sqlite] "
        "[--language en|zh_CN] [--report F.folio-report] [--restart]   a report made section by "
        "section, its figures checked",
        cmd_report},
    Command{
        "serve",
        "serve -m F.gguf [--host 127.0.0.1] [--port 8080] [--mmproj P.gguf] [-t N] [-c CTX] "
        "[--api-key K] [--alias NAME] [--max-body 32M] [--weights mapped|ram|auto] [CACHE FLAGS]   "
        "OpenAI-compatible HTTP server",
        cmd_serve},
    Command{"summarize",
            "summarize DOC.pdf [IMG*] -m F.gguf [--mmproj P] -o O.md [--figures F.json]",
            cmd_summarize},
    Command{"sysinfo", "sysinfo                      CPU, SIMD kernels and memory of this machine",
            cmd_sysinfo},
    Command{"tokenize",
            "tokenize -m F.gguf (--text T | --text-file F) [--no-special] [--no-bos]   token ids",
            cmd_tokenize},
};

} // namespace

std::span<const Command> commands() {
    return kCommands;
}

const Command* find_command(const std::string& name) {
    for (const Command& c : kCommands)
        if (name == c.name)
            return &c;
    return nullptr;
}

int fail(const std::string& message) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    return 1;
}

int usage_error(const Command& command, const std::string& message) {
    std::fprintf(stderr, "usage error: %s\nusage: folio-cli %s\n", message.c_str(),
                 command.synopsis);
    return 2;
}

} // namespace folio::cli
