#include "quantize/recipe.h"

#include "quantize/imatrix_types.h"

#include <fstream>
#include <sstream>

namespace folio::tools {

namespace {

// Kept in every built-in recipe: llama.cpp keeps norms, the router, convolution kernels and
// the indexer's head weights in float.
const char* kKeep[] = {"*_norm.weight", "*_norm.bias",    "*ffn_gate_inp*", "*exp_probs_b*",
                       "*ssm_conv1d*",  "*indexer.proj*", "*ssm_a*",        "*ssm_dt*"};

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos)
        return "";
    const size_t b = s.find_last_not_of(" \t\r");
    return s.substr(a, b - a + 1);
}

Expected<std::optional<DType>> parse_type(const std::string& t) {
    if (t == "keep")
        return std::optional<DType>();
    static const std::pair<const char*, DType> kTypes[] = {
        {"f32", DType::F32},     {"f16", DType::F16},       {"bf16", DType::BF16},
        {"q8_0", DType::Q8_0},   {"q4_0", DType::Q4_0},     {"q4_1", DType::Q4_1},
        {"q5_0", DType::Q5_0},   {"q5_1", DType::Q5_1},     {"q2_k", DType::Q2_K},
        {"q3_k", DType::Q3_K},   {"q4_k", DType::Q4_K},     {"q5_k", DType::Q5_K},
        {"q6_k", DType::Q6_K},   {"iq4_nl", DType::IQ4_NL}, {"iq4_xs", DType::IQ4_XS},
        {"mxfp4", DType::MXFP4}, {"q1_0", DType::Q1_0},     {"q2_0", DType::Q2_0}};
    for (const auto& [name, type] : kTypes)
        if (t == name)
            return std::optional<DType>(type);
    FOLIO_CHECK(refuse_unwritable_type(t));
    return make_error(ErrorCode::InvalidArgument,
                      "unknown type '" + t +
                          "' (f32, f16, bf16, q8_0, q4_0, q4_1, q5_0, q5_1, q2_k, q3_k, q4_k, "
                          "q5_k, q6_k, iq4_nl, iq4_xs, mxfp4, q1_0, q2_0 or keep)");
}

Recipe builtin(const std::string& name, std::vector<RecipeRule> tail, uint32_t file_type) {
    Recipe r;
    r.name = name;
    for (const char* k : kKeep)
        r.rules.push_back({k, std::nullopt});
    r.rules.insert(r.rules.end(), tail.begin(), tail.end());
    r.file_type = file_type;
    return r;
}

} // namespace

bool glob_match(const std::string& p, const std::string& s) {
    size_t pi = 0, si = 0, star = std::string::npos, mark = 0;
    while (si < s.size()) {
        if (pi < p.size() && (p[pi] == '?' || p[pi] == s[si])) {
            ++pi;
            ++si;
        } else if (pi < p.size() && p[pi] == '*') {
            star = pi++;
            mark = si;
        } else if (star != std::string::npos) {
            pi = star + 1;
            si = ++mark;
        } else {
            return false;
        }
    }
    while (pi < p.size() && p[pi] == '*')
        ++pi;
    return pi == p.size();
}

Expected<Recipe> parse_recipe(const std::string& text, const std::string& name) {
    Recipe r;
    r.name = name;
    std::istringstream in(text);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        line = trim(line.substr(0, line.find('#')));
        if (line.empty())
            continue;
        const size_t eq = line.find('=');
        if (eq == std::string::npos)
            return make_error(ErrorCode::Format,
                              name + ":" + std::to_string(number) + ": expected 'pattern = type'");
        const std::string pattern = trim(line.substr(0, eq));
        auto type = parse_type(trim(line.substr(eq + 1)));
        if (!type)
            return make_error(ErrorCode::Format,
                              name + ":" + std::to_string(number) + ": " + type.error().message);
        if (pattern.empty())
            return make_error(ErrorCode::Format,
                              name + ":" + std::to_string(number) + ": empty pattern");
        r.rules.push_back({pattern, *type});
    }
    if (r.rules.empty())
        return make_error(ErrorCode::Format, name + ": no rules");
    return r;
}

Expected<Recipe> load_recipe(const std::string& n) {
    if (n == "q8_0")
        return builtin(n, {{"*", DType::Q8_0}}, 7);
    if (n == "q4_k")
        return builtin(n, {{"*", DType::Q4_K}}, 14);
    if (n == "mxfp4-moe")
        return builtin(n,
                       {{"token_embd.weight", std::nullopt},
                        {"*_exps.weight", DType::MXFP4},
                        {"*", DType::Q8_0}},
                       38);
    if (n == "mxfp4-moe-llama") // llama.cpp's MXFP4_MOE file type, tensor for tensor
        return builtin(n,
                       {{"*_exps.weight", DType::MXFP4},
                        {"*attn_k_b.weight", DType::MXFP4},
                        {"*attn_v_b.weight", DType::MXFP4},
                        {"*", DType::Q8_0}},
                       38);
    static const std::pair<const char*, LlamaFtype> kMixes[] = {{"q3_k_m", LlamaFtype::Q3_K_M},
                                                                {"q4_k_m", LlamaFtype::Q4_K_M},
                                                                {"q5_k_m", LlamaFtype::Q5_K_M},
                                                                {"q6_k", LlamaFtype::Q6_K},
                                                                {"iq4_xs", LlamaFtype::IQ4_XS}};
    for (const auto& [mix_name, ftype] : kMixes)
        if (n == mix_name) {
            Recipe r = builtin(n, {}, static_cast<uint32_t>(ftype));
            r.llama_mix = ftype;
            return r;
        }
    FOLIO_CHECK(refuse_unwritable_type(n));
    std::ifstream f(n);
    if (!f)
        return make_error(
            ErrorCode::NotFound,
            "recipe '" + n +
                "' is neither built in (q8_0, q4_k, mxfp4-moe, mxfp4-moe-llama, q3_k_m, q4_k_m, "
                "q5_k_m, q6_k, iq4_xs) nor a "
                "readable file");
    std::stringstream ss;
    ss << f.rdbuf();
    return parse_recipe(ss.str(), n);
}

bool recipe_matches(const Recipe& r, const std::string& name) {
    for (const RecipeRule& rule : r.rules)
        if (glob_match(rule.pattern, name))
            return true;
    return false;
}

DType recipe_type(const Recipe& r, const std::string& name, int64_t ne0, int n_dims, DType source) {
    if (n_dims < 2)
        return source; // biases, norms, scalars: never quantized
    std::optional<DType> want;
    bool matched = false;
    for (const RecipeRule& rule : r.rules)
        if (glob_match(rule.pattern, name)) {
            want = rule.type;
            matched = true;
            break;
        }
    if (!matched || !want)
        return source;
    auto fits = [&](DType t) {
        return ne0 % static_cast<int64_t>(dtype_traits(t).block_size) == 0;
    };
    if (fits(*want))
        return *want;
    if (fits(DType::Q8_0))
        return DType::Q8_0;
    return source;
}

} // namespace folio::tools
