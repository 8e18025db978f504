// Tokenizer and chat templates (engine/tokenizer; GGUF_LAYOUT.md §7-§8, MODEL_SPEC.md §9,
// conformance README §2-§4): exact agreement with llama.cpp's ids, round trips, streaming
// detokenization, pre-tokenizer pieces, load errors and the rendered templates.
#include <QtTest>

#include "support/test_support.h"
#include "tokenizer_fixtures.h"

#include "gguf/gguf_file.h"
#include "gguf/gguf_writer.h"
#include "tokenizer/chat_template.h"
#include "tokenizer/pre_tokenizer.h"
#include "tokenizer/stream_decoder.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/unicode.h"

#include <random>

using namespace folio;
using namespace folio::test;
using namespace folio::tokenizer;

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

std::vector<int32_t> encode_or_fail(const Tokenizer& tok, const std::string& text, bool add_special,
                                    bool parse_special) {
    auto ids = tok.encode(text, add_special, parse_special);
    if (!ids) {
        qWarning("encode: %s", ids.error().to_string().c_str());
        return {};
    }
    return *ids;
}

std::string decode_or_fail(const Tokenizer& tok, const std::vector<int32_t>& ids) {
    auto text = tok.decode(ids, false);
    if (!text) {
        qWarning("decode: %s", text.error().to_string().c_str());
        return {};
    }
    return *text;
}

std::vector<std::string> pieces_of(PreType type, const std::string& text) {
    std::vector<uint32_t> cps;
    utf8_decode(text, cps);
    PreTokenizeScratch scratch;
    Pieces pieces;
    pre_tokenize(type, cps, scratch, pieces);
    std::vector<std::string> out;
    size_t at = 0;
    for (uint32_t len : pieces) {
        std::string s;
        for (size_t i = at; i < at + len; ++i)
            utf8_append(s, cps[i]);
        out.push_back(s);
        at += len;
    }
    return out;
}

QStringList qlist(const std::vector<std::string>& v) {
    QStringList l;
    for (const std::string& s : v)
        l << q(s);
    return l;
}

} // namespace

class TestTokenizer : public QObject {
    Q_OBJECT

private:
    QString conf_;
    std::optional<Tokenizer> tiny_; // ds2-qlora-f32.gguf: tiny vocabulary, pre kimi-k2
    std::optional<Tokenizer> ds3_;  // deepseek-v3-vocab.gguf: real vocabulary, pre deepseek-v3

    bool need_vocabs() {
        if (conf_.isEmpty())
            return false;
        if (!tiny_)
            tiny_ = load_tokenizer(conf_ + "/models/ds2-qlora-f32.gguf");
        if (!ds3_)
            ds3_ = load_tokenizer(conf_ + "/tokenizer/deepseek-v3-vocab.gguf");
        return tiny_.has_value() && ds3_.has_value();
    }

private slots:
    void initTestCase() { conf_ = conformanceDir(); }

    // Every case of conformance/tokenizer: 40 texts x {tiny, deepseek-v3} x {parse_special,
    // no_parse_special}, BOS added in both (README §4).
    void conformance() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        QVERIFY(need_vocabs());
        struct Vocab {
            const char* name;
            const Tokenizer* tok;
            QString ids_file;
        };
        const Vocab vocabs[] = {{"tiny", &*tiny_, "tiny-vocab-ids.jsonl"},
                                {"deepseek-v3", &*ds3_, "deepseek-v3-ids.jsonl"}};
        int total = 0, passed = 0;
        for (const Vocab& v : vocabs) {
            const auto cases = read_tokenizer_cases(dir + "/tokenizer", v.ids_file);
            QCOMPARE(cases.size(), size_t{40});
            for (const TokenizerCase& c : cases) {
                for (bool parse : {true, false}) {
                    const auto got = encode_or_fail(*v.tok, c.text, true, parse);
                    const auto& want = parse ? c.parse_special : c.no_parse_special;
                    ++total;
                    if (got == want) {
                        ++passed;
                    } else {
                        qWarning("%s %s %s:\n  got  %s\n  want %s", v.name, c.id.c_str(),
                                 parse ? "parse_special" : "no_parse_special",
                                 ids_to_string(got).c_str(), ids_to_string(want).c_str());
                    }
                }
            }
        }
        qInfo("tokenizer conformance: %d/%d cases agree with llama.cpp", passed, total);
        QCOMPARE(total, 160);
        QCOMPARE(passed, total);
    }

    // §7.5: a user typing "<|im_end|>" gets plain text unless special parsing is asked for.
    void special_text_stays_text() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        QVERIFY(need_vocabs());
        const auto plain = encode_or_fail(*tiny_, "<|im_end|>", false, false);
        QVERIFY(std::find(plain.begin(), plain.end(), 266) == plain.end());
        QCOMPARE(decode_or_fail(*tiny_, plain), std::string("<|im_end|>"));
        QCOMPARE(encode_or_fail(*tiny_, "<|im_end|>", false, true), std::vector<int32_t>{266});
        const auto ds = encode_or_fail(*ds3_, "<｜User｜>", false, false);
        QVERIFY(ds.size() > 1);
        QCOMPARE(encode_or_fail(*ds3_, "<｜User｜>", false, true).size(), size_t{1});
    }

    void vocab_properties() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        QVERIFY(need_vocabs());
        QCOMPARE(tiny_->vocab_size(), size_t{320});
        QCOMPARE(tiny_->pre_type(), PreType::KimiK2);
        QCOMPARE(tiny_->bos(), 264);
        QCOMPARE(tiny_->eos(), 265);
        QCOMPARE(tiny_->pad(), 273);
        QVERIFY(tiny_->add_bos());
        QVERIFY(!tiny_->add_eos());
        QCOMPARE(tiny_->eot(), 266);       // <|im_end|>
        for (int32_t id : {265, 266, 273}) // [EOS], <|im_end|>, [PAD] (§7.2)
            QVERIFY2(tiny_->is_eog(id), qPrintable(QString::number(id)));
        for (int32_t id : {264, 267, 100, 319, -1, 320})
            QVERIFY(!tiny_->is_eog(id));
        QCOMPARE(tiny_->token_type(266), TokenType::Control);
        QCOMPARE(tiny_->token_type(300), TokenType::Unused);
        QCOMPARE(tiny_->find_token("<|media_pad|>").value_or(-1), 276);
        QCOMPARE(tiny_->merge_count(), size_t{8});

        QCOMPARE(ds3_->vocab_size(), size_t{129280});
        QCOMPARE(ds3_->pre_type(), PreType::DeepSeekV3);
        QCOMPARE(ds3_->bos(), 0);
        QCOMPARE(ds3_->eos(), 1);
        QVERIFY(ds3_->is_eog(1));
        QVERIFY(!ds3_->is_eog(0));
        QCOMPARE(ds3_->merge_count(), size_t{127741});
    }

    // decode(encode(s)) == s on random Unicode text, both vocabularies, special parsing off.
    void round_trip() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        QVERIFY(need_vocabs());
        for (const Tokenizer* tok : {&*tiny_, &*ds3_}) {
            std::mt19937 rng(1234);
            int failures = 0;
            for (int i = 0; i < 3000; ++i) {
                const std::string s = random_unicode_text(rng, 60);
                const auto ids = encode_or_fail(*tok, s, i % 2 == 0, false);
                const std::string back = decode_or_fail(*tok, ids);
                if (back != s && ++failures <= 5)
                    qWarning("round trip failed (%s): '%s' -> '%s' [%s]",
                             std::string(pre_type_name(tok->pre_type())).c_str(), s.c_str(),
                             back.c_str(), ids_to_string(ids).c_str());
            }
            QCOMPARE(failures, 0);
        }
    }

    // Fed one id at a time, the decoder returns only whole characters and in the end the text.
    void streaming_decoder() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        QVERIFY(need_vocabs());
        std::vector<std::string> texts;
        for (const TokenizerCase& c :
             read_tokenizer_cases(dir + "/tokenizer", "tiny-vocab-ids.jsonl"))
            texts.push_back(c.text);
        std::mt19937 rng(99);
        for (int i = 0; i < 200; ++i)
            texts.push_back(random_unicode_text(rng, 40));
        for (const Tokenizer* tok : {&*tiny_, &*ds3_}) {
            int held_back = 0;
            for (const std::string& text : texts) {
                const auto ids = encode_or_fail(*tok, text, true, false);
                StreamDecoder dec(*tok);
                std::string all;
                for (int32_t id : ids) {
                    auto piece = dec.push(id);
                    QVERIFY(piece.has_value());
                    QVERIFY2(is_valid_utf8(*piece), text.c_str());
                    if (piece->empty() && dec.pending_bytes() > 0)
                        ++held_back;
                    all += *piece;
                }
                QCOMPARE(dec.pending_bytes(), size_t{0});
                all += dec.finish();
                QCOMPARE(all, text);
            }
            if (tok == &*tiny_)
                QVERIFY(held_back > 100); // byte tokens split most non-ASCII characters
        }
        // Control tokens render only when asked; an id outside the vocabulary is an error.
        StreamDecoder plain(*tiny_);
        QCOMPARE(plain.push(266).value(), std::string());
        StreamDecoder special(*tiny_, true);
        QCOMPARE(special.push(266).value(), std::string("<|im_end|>"));
        QVERIFY(!plain.push(320).has_value());
        QVERIFY(!plain.push(-1).has_value());
        // A character cut short by the end of the stream becomes U+FFFD.
        StreamDecoder cut(*tiny_);
        QCOMPARE(cut.push(0xE4).value(), std::string()); // byte token 0xE4: lead of 3 bytes
        QCOMPARE(cut.pending_bytes(), size_t{1});
        QCOMPARE(cut.finish(), std::string("\xEF\xBF\xBD"));
        // A lead byte followed by a non-continuation byte: U+FFFD, then the byte.
        StreamDecoder broken(*tiny_);
        QCOMPARE(broken.push(0xE4).value(), std::string());
        QCOMPARE(broken.push('A').value(), std::string("\xEF\xBF\xBD"
                                                       "A"));
    }

    void decode_errors() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        QVERIFY(need_vocabs());
        QVERIFY(!tiny_->token_to_piece(320, true).has_value());
        QVERIFY(!tiny_->token_to_piece(-5, false).has_value());
        const std::vector<int32_t> bad = {72, 105, 99999};
        auto d = tiny_->decode(bad, false);
        QVERIFY(!d.has_value());
        QCOMPARE(d.error().code, ErrorCode::InvalidArgument);
        QVERIFY(q(d.error().message).contains("99999"));
        QCOMPARE(tiny_->token_to_piece(300, true).value(), std::string());  // UNUSED
        QCOMPARE(tiny_->token_to_piece(264, false).value(), std::string()); // [BOS] CONTROL
        QCOMPARE(tiny_->token_to_piece(264, true).value(), std::string("[BOS]"));
        QCOMPARE(tiny_->token_to_piece(259, false).value(), std::string(" the"));
    }

    // The generated tables (tools/unicode/gen_unicode_tables.py) on a few known code points.
    void unicode_classes() {
        QCOMPARE(cp_flags('A'), CpFlags{kLetter});
        QCOMPARE(cp_flags('7'), CpFlags{kNumber});
        QCOMPARE(cp_flags('~'), CpFlags{kSymbol});
        QCOMPARE(cp_flags('_'), CpFlags{kPunctuation});
        QCOMPARE(cp_flags(' '), CpFlags(kSeparator | kWhitespace));
        QCOMPARE(cp_flags('\n'), CpFlags(kControl | kWhitespace));
        QCOMPARE(cp_flags(0x85), CpFlags(kControl | kWhitespace));
        QCOMPARE(cp_flags(0x1C), CpFlags{kControl}); // not White_Space
        QCOMPARE(cp_flags(0x0301), CpFlags{kMark});
        QCOMPARE(cp_flags(0x00B2), CpFlags{kNumber}); // superscript two (No)
        QCOMPARE(cp_flags(0x3000), CpFlags(kSeparator | kWhitespace));
        QCOMPARE(cp_flags(0x4E2D), CpFlags{kLetter});
        QCOMPARE(cp_flags(0xAC01), CpFlags{kLetter});  // inside the Hangul First/Last range
        QCOMPARE(cp_flags(0x2A6D0), CpFlags{kLetter}); // CJK Extension B, plane 2
        QCOMPARE(cp_flags(0x1F600), CpFlags{kSymbol});
        QCOMPARE(cp_flags(0x200D), CpFlags{kControl}); // ZWJ (Cf)
        QCOMPARE(cp_flags(0xE123), CpFlags{kControl}); // private use (Co)
        QCOMPARE(cp_flags(0x0378), CpFlags{0});        // unassigned
        QCOMPARE(cp_flags(0x110000), CpFlags{0});
        std::vector<uint32_t> cps;
        utf8_decode("a\xE4\xB8\xAD"
                    "b\xFF\xE4\xB8",
                    cps); // invalid bytes -> U+FFFD each
        QCOMPARE(cps, (std::vector<uint32_t>{'a', 0x4E2D, 'b', 0xFFFD, 0xFFFD, 0xFFFD}));
    }

    // Piece boundaries of each pre-tokenizer (§7.6) on inputs whose splits the regexes fix.
    void pre_tokenizer_pieces_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("pieces");
        auto row = [](const char* name, PreType t, const char* text, QStringList pieces) {
            QTest::newRow(name) << static_cast<int>(t) << QString::fromUtf8(text) << pieces;
        };
        row("kimi words", PreType::KimiK2, "Hello world", {"Hello", " world"});
        row("kimi han", PreType::KimiK2, "数据📈上涨。Ok", {"数据", "📈", "上涨", "。Ok"});
        row("kimi digits", PreType::KimiK2, "12345678", {"123", "456", "78"});
        row("kimi contraction", PreType::KimiK2, "THEY'RE it's", {"THEY'RE", " it's"});
        row("kimi camel", PreType::KimiK2, "McDonald", {"McDonald"});
        row("kimi spaces", PreType::KimiK2, "a   b", {"a", "  ", " b"});
        row("kimi newlines", PreType::KimiK2, "a \n\n b\r\n", {"a", " \n\n", " b", "\r\n"});
        row("kimi punct", PreType::KimiK2, "x += 1;\n", {"x", " +=", " ", "1", ";\n"});
        row("kimi mark", PreType::KimiK2, "e\xCC\x81t\xC3\xA9", {"e", "\xCC\x81t\xC3\xA9"});
        row("deepseek words", PreType::DeepSeekV3, "Hello world", {"Hello", " world"});
        row("deepseek digits", PreType::DeepSeekV3, "1234567", {"123", "456", "7"});
        row("deepseek cjk", PreType::DeepSeekV3, "数据📈上涨", {"数据", "📈", "上涨"});
        row("deepseek kana", PreType::DeepSeekV3, "日本語のテキスト", {"日本語のテキスト"});
        row("deepseek punct word", PreType::DeepSeekV3, "don't .NET", {"don", "'t", " .", "NET"});
        row("deepseek marks", PreType::DeepSeekV3, "e\xCC\x81t\xC3\xA9", {"e\xCC\x81t\xC3\xA9"});
        row("deepseek ws", PreType::DeepSeekV3, "a  b \n c", {"a", " ", " b", " \n", " c"});
        row("deepseek tilde", PreType::DeepSeekV3, "~ ~", {"~", " ", "~"});
        row("qwen2 digits", PreType::Qwen2, "abc 123", {"abc", " ", "1", "2", "3"});
        row("qwen2 contraction", PreType::Qwen2, "it's", {"it", "'s"});
        row("llama3 digits", PreType::Llama3, "abc 12345", {"abc", " ", "123", "45"});
        row("gpt2", PreType::Gpt2, "abc 12345 it's!!", {"abc", " 12345", " it", "'s", "!!"});
        row("default", PreType::Default, "Hello, world! 12345",
            {"Hello", ",", " world", "!", " ", "123", "45"});
    }
    void pre_tokenizer_pieces() {
        QFETCH(int, type);
        QFETCH(QString, text);
        QFETCH(QStringList, pieces);
        QCOMPARE(qlist(pieces_of(static_cast<PreType>(type), text.toStdString())), pieces);
    }

    // Merge order (§7.4 d) and llama-bpe's whole-piece lookup, on a hand-made vocabulary.
    void bpe_merges() {
        const QString dir = scratchDir("tokenizer-bpe");
        // ids 256 "bc", 257 "ab", 258 "abc"; merge "b c" ranks before "a b".
        const std::vector<std::string> extra = {"bc", "ab", "abc", "xyz"};
        const std::vector<std::string> merges = {"b c", "a b", "a bc"};
        auto gpt2 = load_tokenizer(q(write_vocab_gguf(dir, "gpt-2", extra, merges)));
        QVERIFY(gpt2.has_value());
        QCOMPARE(gpt2->encode("abc", false, false).value(), (std::vector<int32_t>{258}));
        QCOMPARE(gpt2->encode("abab", false, false).value(), (std::vector<int32_t>{257, 257}));
        QCOMPARE(gpt2->encode("xyz", false, false).value(), (std::vector<int32_t>{'x', 'y', 'z'}));
        auto llama = load_tokenizer(q(write_vocab_gguf(dir, "llama-bpe", extra, merges)));
        QVERIFY(llama.has_value());
        QCOMPARE(llama->encode("xyz", false, false).value(), (std::vector<int32_t>{259}));
        QVERIFY(llama->add_bos()); // llama-bpe default
        QVERIFY(!gpt2->add_bos());
    }

    void unknown_pre_is_error() {
        const QString dir = scratchDir("tokenizer-pre");
        const std::string path = write_vocab_gguf(dir, "mystery-pre", {}, {});
        auto file = gguf::File::open(path);
        QVERIFY(file.has_value());
        auto tok = Tokenizer::from_gguf(**file);
        QVERIFY(!tok.has_value());
        QCOMPARE(tok.error().code, ErrorCode::Unsupported);
        QVERIFY2(q(tok.error().message).contains("mystery-pre"), tok.error().message.c_str());
        QVERIFY(q(tok.error().message).contains("tokenizer.ggml.pre"));

        // No pre at all: the default pre-tokenizer, with a warning.
        auto none = load_tokenizer(q(write_vocab_gguf(dir, "", {}, {})));
        QVERIFY(none.has_value());
        QCOMPARE(none->pre_type(), PreType::Default);
        QCOMPARE(none->warnings().size(), size_t{1});
    }

    void other_load_errors() {
        const QString dir = scratchDir("tokenizer-errors");
        auto open_and_load = [](gguf::Writer& w, const std::string& path) {
            auto st = w.write(path);
            if (!st)
                qFatal("%s", st.error().to_string().c_str());
            auto f = gguf::File::open(path);
            if (!f)
                qFatal("%s", f.error().to_string().c_str());
            return Tokenizer::from_gguf(**f);
        };
        gguf::Writer w;
        w.set_string("general.architecture", "deepseek2");
        w.set_string("tokenizer.ggml.model", "llama");
        w.set_string_array("tokenizer.ggml.tokens", {"a", "b"});
        auto r = open_and_load(w, (dir + "/spm.gguf").toStdString());
        QVERIFY(!r.has_value());
        QVERIFY(q(r.error().message).contains("'llama'"));

        w.set_string("tokenizer.ggml.model", "gpt2");
        w.set_string("tokenizer.ggml.pre", "qwen2");
        r = open_and_load(w, (dir + "/nomerges.gguf").toStdString());
        QVERIFY(!r.has_value());
        QVERIFY(q(r.error().message).contains("tokenizer.ggml.merges"));

        w.set_string_array("tokenizer.ggml.merges", {});
        w.set_int_array("tokenizer.ggml.token_type", gguf::ValueType::I32, {1, 1, 1});
        r = open_and_load(w, (dir + "/types.gguf").toStdString());
        QVERIFY(!r.has_value());
        QVERIFY(q(r.error().message).contains("token_type"));

        // Without bos/eos keys gpt2 vocabularies default to id 11 (§7.2), if it exists.
        w.set_int_array("tokenizer.ggml.token_type", gguf::ValueType::I32, {1, 1});
        r = open_and_load(w, (dir + "/tiny.gguf").toStdString());
        QVERIFY(r.has_value());
        QCOMPARE(r->bos(), kNoToken);
        QCOMPARE(r->eos(), kNoToken);
    }

    void chat_kimi_conversation() {
        const std::vector<ChatMessage> chat = {{"system", "You are helpful.", 0, {}},
                                               {"user", "Hi", 0, {}},
                                               {"assistant", "Hello!", 0, {}},
                                               {"user", "What is 2+2?", 0, {}}};
        QCOMPARE(apply_chat_template(TemplateKind::KimiK2, chat, true).value(),
                 std::string("<|im_system|>system<|im_middle|>You are helpful.<|im_end|>"
                             "<|im_user|>user<|im_middle|>Hi<|im_end|>"
                             "<|im_assistant|>assistant<|im_middle|>Hello!<|im_end|>"
                             "<|im_user|>user<|im_middle|>What is 2+2?<|im_end|>"
                             "<|im_assistant|>assistant<|im_middle|>"));
        QCOMPARE(apply_chat_template(TemplateKind::KimiK2, {chat[1]}, false).value(),
                 std::string("<|im_user|>user<|im_middle|>Hi<|im_end|>"));
    }

    void chat_kimi_tool_call() {
        std::vector<ChatMessage> chat = {
            {"user", "Weather in Paris?", 0, {}}, {"assistant", "", 0, {}},
            {"tool", "{\"temp\": 21}", 0, {}},    {"assistant", "It is 21 degrees.", 0, {}},
            {"user", "And Rome?", 0, {}},         {"assistant", "", 0, {}}};
        chat[1].tool_calls = {{"", "get_weather", "{\"city\": \"Paris\"}"}};
        chat[5].tool_calls = {{"", "get_weather", "{\"city\": \"Rome\"}"},
                              {"call_x", "get_time", "{}"}};
        ChatOptions opt;
        opt.tools_json = "[{\"type\": \"function\", \"function\": {\"name\": \"get_weather\"}}]";
        QCOMPARE(
            apply_chat_template(TemplateKind::KimiK2, chat, false, opt).value(),
            std::string(
                "<|im_system|>tool_declare<|im_middle|>[{\"type\": \"function\", \"function\": "
                "{\"name\": \"get_weather\"}}]<|im_end|>"
                "<|im_user|>user<|im_middle|>Weather in Paris?<|im_end|>"
                "<|im_assistant|>assistant<|im_middle|><|tool_calls_section_begin|>"
                "<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
                "{\"city\": \"Paris\"}<|tool_call_end|><|tool_calls_section_end|><|im_end|>"
                "<|im_system|>tool<|im_middle|>{\"temp\": 21}<|im_end|>"
                "<|im_assistant|>assistant<|im_middle|>It is 21 degrees.<|im_end|>"
                "<|im_user|>user<|im_middle|>And Rome?<|im_end|>"
                "<|im_assistant|>assistant<|im_middle|><|tool_calls_section_begin|>"
                "<|tool_call_begin|>functions.get_weather:1<|tool_call_argument_begin|>"
                "{\"city\": \"Rome\"}<|tool_call_end|>"
                "<|tool_call_begin|>call_x<|tool_call_argument_begin|>{}<|tool_call_end|>"
                "<|tool_calls_section_end|><|im_end|>"));
    }

    void chat_kimi_vl_image() {
        const std::vector<ChatMessage> chat = {{"user", "What does this chart show?", 1, {}}};
        QCOMPARE(apply_chat_template(TemplateKind::KimiVL, chat, true).value(),
                 std::string("<|im_user|>user<|im_middle|><|media_start|><|media_pad|>"
                             "<|media_end|>What does this chart show?<|im_end|>"
                             "<|im_assistant|>assistant<|im_middle|>"));
        const std::vector<ChatMessage> two = {{"system", "Be brief.", 0, {}},
                                              {"user", "Compare.", 2, {}}};
        QCOMPARE(apply_chat_template(TemplateKind::KimiVL, two, false).value(),
                 std::string("<|im_system|>system<|im_middle|>Be brief.<|im_end|>"
                             "<|im_user|>user<|im_middle|>"
                             "<|media_start|><|media_pad|><|media_end|>"
                             "<|media_start|><|media_pad|><|media_end|>Compare.<|im_end|>"));
    }

    // Images at `<__media__>` markers (issue #23): a scanned page inside its page marker in the
    // system turn of a document prompt, and a user message whose images sit among its text.
    // A marker count other than the image count keeps the images first (the text verbatim).
    void chat_kimi_vl_images_at_markers() {
        const std::vector<ChatMessage> doc = {
            {"system", "[page 1]\nRevenue\n[page 2]\n<__media__>\n[page 3]\nEnd\n", 1, {}},
            {"user", "Who signed [p. 2]?", 0, {}}};
        QCOMPARE(apply_chat_template(TemplateKind::KimiVL, doc, true).value(),
                 std::string("<|im_system|>system<|im_middle|>[page 1]\nRevenue\n[page 2]\n"
                             "<|media_start|><|media_pad|><|media_end|>\n[page 3]\nEnd\n"
                             "<|im_end|><|im_user|>user<|im_middle|>Who signed [p. 2]?"
                             "<|im_end|><|im_assistant|>assistant<|im_middle|>"));
        const std::vector<ChatMessage> among = {
            {"user", "A <__media__> then B <__media__>.", 2, {}}};
        QCOMPARE(apply_chat_template(TemplateKind::KimiVL, among, false).value(),
                 std::string("<|im_user|>user<|im_middle|>A <|media_start|><|media_pad|>"
                             "<|media_end|> then B <|media_start|><|media_pad|><|media_end|>."
                             "<|im_end|>"));
        const std::vector<ChatMessage> mismatch = {{"user", "one <__media__>", 2, {}}};
        QCOMPARE(apply_chat_template(TemplateKind::KimiVL, mismatch, false).value(),
                 std::string("<|im_user|>user<|im_middle|>"
                             "<|media_start|><|media_pad|><|media_end|>"
                             "<|media_start|><|media_pad|><|media_end|>one <__media__><|im_end|>"));
        // A system message takes images only at markers; K2 (no vision) takes none.
        QVERIFY(
            !apply_chat_template(TemplateKind::KimiVL, {{"system", "no marker", 1, {}}}, false));
        QVERIFY(
            !apply_chat_template(TemplateKind::KimiK2, {{"user", "<__media__>", 1, {}}}, false));
    }

    void chat_deepseek() {
        const std::vector<ChatMessage> chat = {{"system", "You are helpful.", 0, {}},
                                               {"user", "Hi", 0, {}},
                                               {"assistant", "Hello!", 0, {}},
                                               {"user", "What is 2+2?", 0, {}}};
        QCOMPARE(
            apply_chat_template(TemplateKind::DeepSeekV3, chat, true).value(),
            std::string("You are helpful.<｜User｜>Hi<｜Assistant｜>Hello!<｜end▁of▁sentence｜>"
                        "<｜User｜>What is 2+2?<｜Assistant｜>"));

        std::vector<ChatMessage> tools = {{"system", "A.", 0, {}},
                                          {"system", "B.", 0, {}},
                                          {"user", "Weather in Paris?", 0, {}},
                                          {"assistant", "", 0, {}},
                                          {"tool", "{\"temp\": 21}", 0, {}},
                                          {"tool", "{\"rain\": 0}", 0, {}},
                                          {"assistant", "It is 21 degrees.", 0, {}}};
        tools[3].tool_calls = {{"", "get_weather", "{\"city\": \"Paris\"}"},
                               {"", "get_rain", "{\"city\": \"Paris\"}"}};
        const std::string rendered =
            apply_chat_template(TemplateKind::DeepSeekV3, tools, true).value();
        QCOMPARE(
            rendered,
            std::string("A.\n\nB.<｜User｜>Weather in Paris?<｜Assistant｜><｜tool▁calls▁begin｜>"
                        "<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n"
                        "{\"city\": \"Paris\"}\n```<｜tool▁call▁end｜>\n"
                        "<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_rain\n```json\n"
                        "{\"city\": \"Paris\"}\n```<｜tool▁call▁end｜>"
                        "<｜tool▁calls▁end｜><｜end▁of▁sentence｜>"
                        "<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>{\"temp\": 21}"
                        "<｜tool▁output▁end｜>\n<｜tool▁output▁begin｜>{\"rain\": 0}"
                        "<｜tool▁output▁end｜><｜tool▁outputs▁end｜>It is 21 degrees."
                        "<｜end▁of▁sentence｜><｜Assistant｜>"));
        // Ending on tool outputs closes them and adds no generation prompt (the Jinja rule).
        tools.pop_back();
        const std::string open = apply_chat_template(TemplateKind::DeepSeekV3, tools, true).value();
        QVERIFY(open.ends_with("<｜tool▁output▁end｜><｜tool▁outputs▁end｜>"));

        // The rest needs the real vocabulary (conformance data): missing fails under CI=true.
        FOLIO_REQUIRE_CONFORMANCE(dir);
        QVERIFY(need_vocabs());
        // The markers are single control tokens of the real vocabulary.
        const auto ids = encode_or_fail(*ds3_, rendered, true, true);
        QCOMPARE(ids.front(), 0);
        for (const char* marker : {"<｜User｜>", "<｜Assistant｜>", "<｜tool▁calls▁begin｜>",
                                   "<｜tool▁sep｜>", "<｜tool▁outputs▁end｜>"}) {
            const auto id = ds3_->find_token(marker);
            QVERIFY2(id.has_value(), marker);
            QVERIFY2(std::find(ids.begin(), ids.end(), *id) != ids.end(), marker);
        }
    }

    void chat_errors() {
        QVERIFY(!apply_chat_template(TemplateKind::KimiK2, {{"robot", "x", 0, {}}}, true));
        QVERIFY(!apply_chat_template(TemplateKind::DeepSeekV3, {{"robot", "x", 0, {}}}, true));
        QVERIFY(!apply_chat_template(TemplateKind::KimiK2, {{"user", "x", 1, {}}}, true));
        QVERIFY(!apply_chat_template(TemplateKind::KimiVL, {{"assistant", "x", 1, {}}}, true));
        QVERIFY(!apply_chat_template(TemplateKind::DeepSeekV3, {{"user", "x", 1, {}}}, true));
    }

    void chat_detection() {
        QCOMPARE(detect_chat_template("{{x}}<|im_assistant|>assistant<|im_middle|>", "").value(),
                 TemplateKind::KimiK2);
        QCOMPARE(detect_chat_template("<|im_assistant|>assistant<|im_middle|><|media_start|>", "")
                     .value(),
                 TemplateKind::KimiVL);
        QCOMPARE(detect_chat_template("", "kimi-k2").value(), TemplateKind::KimiK2);
        QCOMPARE(detect_chat_template("", "deepseek-v3").value(), TemplateKind::DeepSeekV3);
        QVERIFY(!detect_chat_template("{{ unknown }}", "qwen2"));
        QCOMPARE(template_from_name("kimi-vl").value(), TemplateKind::KimiVL);
        QCOMPARE(template_from_name("deepseek3").value(), TemplateKind::DeepSeekV3);
        QVERIFY(!template_from_name("chatml"));
        // The rest needs the real vocabulary (conformance data): missing fails under CI=true.
        FOLIO_REQUIRE_CONFORMANCE(dir);
        QVERIFY(need_vocabs());
        QCOMPARE(detect_chat_template(ds3_->chat_template(), "deepseek-v3").value(),
                 TemplateKind::DeepSeekV3);
    }

    // Conformance README §2, greedy prompt 2: the kimi-k2 template of one user message, with
    // BOS and special parsing, gives llama.cpp's prompt_tokens.
    void greedy_prompt_tokens() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        QVERIFY(need_vocabs());
        const QVariantMap golden = read_json(dir + "/goldens/ds2-qlora-f32.json").toMap();
        const QVariantList greedy = golden.value("greedy").toList();
        QCOMPARE(greedy.size(), 2);
        const QVariantMap g = greedy[1].toMap();
        const std::string prompt = g.value("prompt_text").toString().toStdString();
        const std::vector<ChatMessage> chat = {
            {"user",
             "Summarize: revenue rose 7.4% to $4.5 billion while margins improved.",
             0,
             {}}};
        QCOMPARE(apply_chat_template(TemplateKind::KimiK2, chat, true).value(), prompt);
        const auto want = to_ids(g.value("prompt_tokens"));
        QCOMPARE(want.size(), size_t{82});
        QCOMPARE(encode_or_fail(*tiny_, prompt, true, true), want);
        // Prompt 1 too (plain text).
        const QVariantMap g0 = greedy[0].toMap();
        QCOMPARE(
            encode_or_fail(*tiny_, g0.value("prompt_text").toString().toStdString(), true, true),
            to_ids(g0.value("prompt_tokens")));
    }

    // Conformance README §3: the Kimi-VL prompt tokenizes to the recorded chunks, the image
    // placeholder standing where mtmd puts the embeddings.
    void vision_prompt_tokens() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const QVariantMap golden = read_json(dir + "/goldens/vision.json").toMap();
        const QVariantList chunks = golden.value("chunks").toList();
        QCOMPARE(chunks.size(), 3);
        auto vl = load_tokenizer(dir + "/models/ds2-vl-text-f32.gguf");
        QVERIFY(vl.has_value());
        const std::vector<ChatMessage> chat = {{"user", "What does this chart show?", 1, {}}};
        const std::string prompt = apply_chat_template(TemplateKind::KimiVL, chat, true).value();
        // The golden prompt with mtmd's marker in place of the image.
        std::string golden_prompt = golden.value("prompt_text").toString().toStdString();
        const std::string marker = golden.value("media_marker").toString().toStdString();
        golden_prompt.replace(golden_prompt.find(marker), marker.size(),
                              "<|media_start|><|media_pad|><|media_end|>");
        QCOMPARE(prompt, golden_prompt);

        const auto ids = encode_or_fail(*vl, prompt, true, true);
        std::vector<int32_t> want = to_ids(chunks[0].toMap().value("tokens"));
        QCOMPARE(want.back(), 270); // <|media_start|> closes the first chunk
        const int32_t placeholder = vl->find_token(std::string(kKimiImagePlaceholder)).value();
        want.push_back(placeholder);
        const auto tail = to_ids(chunks[2].toMap().value("tokens"));
        QCOMPARE(tail.front(), 271); // <|media_end|> opens the last one
        want.insert(want.end(), tail.begin(), tail.end());
        QCOMPARE(ids, want);
    }
};

QTEST_GUILESS_MAIN(TestTokenizer)
#include "test_tokenizer.moc"
