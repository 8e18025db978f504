// Chat templates (engine/tokenizer/chat_template; conformance README §2-§3): the rendered Kimi-K2,
// Kimi-VL and DeepSeek-V3 conversations, errors and detection, and the prompts of the greedy and
// vision goldens tokenized to llama.cpp's ids.
#include <QtTest>

#include "support/test_support.h"
#include "tokenizer_fixtures.h"

#include "tokenizer/chat_template.h"
#include "tokenizer/tokenizer.h"

using namespace folio;
using namespace folio::test;
using namespace folio::tokenizer;

class TestChatTemplate : public QObject {
    Q_OBJECT

private:
    QString conf_;
    std::optional<Tokenizer> tiny_; // ds2-qlora-f32.gguf: tiny vocabulary, pre kimi-k2
    std::optional<Tokenizer> ds3_;  // deepseek-v3-vocab.gguf: real vocabulary, pre deepseek-v3

    bool need_vocabs() { return folio::test::need_vocabs(conf_, tiny_, ds3_); }

private slots:
    void initTestCase() { conf_ = conformanceDir(); }

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

QTEST_GUILESS_MAIN(TestChatTemplate)
#include "test_chat_template.moc"
