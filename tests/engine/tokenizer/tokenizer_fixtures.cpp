#include "tokenizer_fixtures.h"

#include "gguf/gguf_file.h"
#include "gguf/gguf_writer.h"
#include "tokenizer/byte_encoding.h"
#include "tokenizer/unicode.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QVariant>
#include <QtTest>

namespace folio::test {

std::optional<tokenizer::Tokenizer> load_tokenizer(const QString& path) {
    auto file = gguf::File::open(path.toStdString());
    if (!file) {
        qWarning("%s", file.error().to_string().c_str());
        return std::nullopt;
    }
    auto tok = tokenizer::Tokenizer::from_gguf(**file);
    if (!tok) {
        qWarning("%s", tok.error().to_string().c_str());
        return std::nullopt;
    }
    return std::move(*tok);
}

bool need_vocabs(const QString& conf, std::optional<tokenizer::Tokenizer>& tiny,
                 std::optional<tokenizer::Tokenizer>& ds3) {
    if (conf.isEmpty())
        return false;
    if (!tiny)
        tiny = load_tokenizer(conf + "/models/ds2-qlora-f32.gguf");
    if (!ds3)
        ds3 = load_tokenizer(conf + "/tokenizer/deepseek-v3-vocab.gguf");
    return tiny.has_value() && ds3.has_value();
}

std::vector<int32_t> encode_or_fail(const tokenizer::Tokenizer& tok, const std::string& text,
                                    bool add_special, bool parse_special) {
    auto ids = tok.encode(text, add_special, parse_special);
    if (!ids) {
        qWarning("encode: %s", ids.error().to_string().c_str());
        return {};
    }
    return *ids;
}

namespace {

std::vector<QJsonObject> read_jsonl(const QString& path) {
    std::vector<QJsonObject> rows;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return rows;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (!line.trimmed().isEmpty())
            rows.push_back(QJsonDocument::fromJson(line).object());
    return rows;
}

} // namespace

std::vector<int32_t> to_ids(const QVariant& list) {
    std::vector<int32_t> ids;
    for (const QVariant& v : list.toList())
        ids.push_back(v.toInt());
    return ids;
}

std::vector<TokenizerCase> read_tokenizer_cases(const QString& dir, const QString& ids_file) {
    std::map<std::string, TokenizerCase> by_id;
    for (const QJsonObject& o : read_jsonl(dir + "/texts.jsonl")) {
        TokenizerCase c;
        c.id = o.value("id").toString().toStdString();
        c.text = o.value("text").toString().toStdString();
        by_id[c.id] = c;
    }
    std::vector<TokenizerCase> cases;
    for (const QJsonObject& o : read_jsonl(dir + "/" + ids_file)) {
        auto it = by_id.find(o.value("id").toString().toStdString());
        if (it == by_id.end())
            continue;
        TokenizerCase c = it->second;
        c.parse_special = to_ids(o.value("parse_special").toVariant());
        c.no_parse_special = to_ids(o.value("no_parse_special").toVariant());
        cases.push_back(c);
    }
    return cases;
}

QVariant read_json(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).toVariant();
}

std::string random_unicode_text(std::mt19937& rng, size_t max_code_points) {
    struct Range {
        uint32_t first, last;
    };
    static const Range kRanges[] = {
        {0x20, 0x7E},       {0x30, 0x39},       {0x41, 0x5A},        {0x61, 0x7A},
        {0xA0, 0xFF},       {0x100, 0x24F},     {0x300, 0x36F},      {0x370, 0x3FF},
        {0x400, 0x4FF},     {0x600, 0x6FF},     {0x900, 0x97F},      {0xE00, 0xE7F},
        {0x1100, 0x11FF},   {0x2000, 0x206F},   {0x20A0, 0x20CF},    {0x2190, 0x22FF},
        {0x2E80, 0x2FDF},   {0x3000, 0x303F},   {0x3040, 0x30FF},    {0x3400, 0x4DBF},
        {0x4E00, 0x9FFF},   {0xAC00, 0xD7A3},   {0xE000, 0xE0FF},    {0xF900, 0xFAFF},
        {0xFE00, 0xFE0F},   {0xFF00, 0xFFEF},   {0x10000, 0x1007F},  {0x1D400, 0x1D7FF},
        {0x1F300, 0x1F5FF}, {0x1F600, 0x1F64F}, {0x1F900, 0x1F9FF},  {0x20000, 0x2A6DF},
        {0x2F800, 0x2FA1F}, {0xE0000, 0xE007F}, {0x10FF00, 0x10FFFD}};
    static const char* const kAtoms[] = {
        " ",        "  ",           "\t",           "\n",           "\r\n", "\r\n\r\n", " \n ",
        "\xC2\xA0", "\xE3\x80\x80", "\xE2\x80\x8D", "\xEF\xB8\x8F", "'s",   "'LL",      "   \t"};
    std::string s;
    const size_t n = std::uniform_int_distribution<size_t>(1, max_code_points)(rng);
    for (size_t i = 0; i < n; ++i) {
        if (rng() % 5 == 0) {
            s += kAtoms[rng() % std::size(kAtoms)];
            continue;
        }
        const Range& r = kRanges[rng() % std::size(kRanges)];
        const uint32_t cp = r.first + static_cast<uint32_t>(rng() % (r.last - r.first + 1));
        if (cp >= 0xD800 && cp <= 0xDFFF)
            continue;
        tokenizer::utf8_append(s, cp);
    }
    return s;
}

bool is_valid_utf8(const std::string& s) {
    // Written independently of the code under test (stream_decoder.cpp).
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const size_t n = s.size();
    for (size_t i = 0; i < n;) {
        const unsigned c = p[i];
        size_t len = 0;
        uint32_t cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c >> 5) == 0x6) {
            len = 2;
            cp = c & 0x1F;
        } else if ((c >> 4) == 0xE) {
            len = 3;
            cp = c & 0x0F;
        } else if ((c >> 3) == 0x1E) {
            len = 4;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (i + len > n)
            return false;
        for (size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        const uint32_t min_cp = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
        if (cp < min_cp || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += len;
    }
    return true;
}

std::string write_vocab_gguf(const QString& dir, const std::string& pre,
                             const std::vector<std::string>& extra_tokens,
                             const std::vector<std::string>& merges) {
    std::vector<std::string> tokens;
    for (uint32_t b = 0; b < 256; ++b)
        tokens.push_back(tokenizer::bytes_to_mapped(std::string(1, static_cast<char>(b))));
    tokens.insert(tokens.end(), extra_tokens.begin(), extra_tokens.end());
    gguf::Writer w;
    w.set_string("general.architecture", "deepseek2");
    w.set_string("tokenizer.ggml.model", "gpt2");
    if (!pre.empty())
        w.set_string("tokenizer.ggml.pre", pre);
    w.set_int_array("tokenizer.ggml.token_type", gguf::ValueType::I32,
                    std::vector<int64_t>(tokens.size(), 1));
    w.set_string_array("tokenizer.ggml.tokens", tokens);
    w.set_string_array("tokenizer.ggml.merges", merges);
    w.set_u32("tokenizer.ggml.bos_token_id", 0);
    w.set_u32("tokenizer.ggml.eos_token_id", 1);
    const std::string path =
        (dir + "/vocab-" + QString::fromStdString(pre) + ".gguf").toStdString();
    auto st = w.write(path);
    if (!st)
        qWarning("%s", st.error().to_string().c_str());
    return path;
}

std::string ids_to_string(const std::vector<int32_t>& ids) {
    std::string s;
    for (size_t i = 0; i < ids.size(); ++i)
        s += (i ? ", " : "") + std::to_string(ids[i]);
    return s;
}

} // namespace folio::test
