// The tokenizer (engine/tokenizer; src/llama-vocab.cpp, conformance README §4):
// exact agreement with llama.cpp's ids, round trips, streaming detokenization,
// pre-tokenizer pieces and load errors. The chat templates are test_chat_template.
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

    bool need_vocabs() { return folio::test::need_vocabs(conf_, tiny_, ds3_); }

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

    // A user typing "<|im_end|>" gets plain text unless special parsing is asked for.
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
        for (int32_t id : {265, 266, 273}) // [EOS], <|im_end|>, [PAD]
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

    // Piece boundaries of each llama.cpp pre-tokenizer on inputs whose splits the regexes fix.
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

    // Merge order (lowest rank first) and llama-bpe's whole-piece lookup, on a hand-made
    // vocabulary.
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

        // Without bos/eos keys gpt2 vocabularies default to id 11 (as llama.cpp), if it exists.
        w.set_int_array("tokenizer.ggml.token_type", gguf::ValueType::I32, {1, 1});
        r = open_and_load(w, (dir + "/tiny.gguf").toStdString());
        QVERIFY(r.has_value());
        QCOMPARE(r->bos(), kNoToken);
        QCOMPARE(r->eos(), kNoToken);
    }
};

QTEST_GUILESS_MAIN(TestTokenizer)
#include "test_tokenizer.moc"
