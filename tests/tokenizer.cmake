folio_add_test(test_tokenizer
    SOURCES engine/tokenizer/test_tokenizer.cpp engine/tokenizer/tokenizer_fixtures.cpp
    LIBS folio_engine_internal
    LABELS engine)

# The chat templates, and the goldens' prompts through them and the tokenizer.
folio_add_test(test_chat_template
    SOURCES engine/tokenizer/test_chat_template.cpp engine/tokenizer/tokenizer_fixtures.cpp
    LIBS folio_engine_internal
    LABELS engine)
