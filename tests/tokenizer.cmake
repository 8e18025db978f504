folio_add_test(test_tokenizer
    SOURCES engine/tokenizer/test_tokenizer.cpp engine/tokenizer/tokenizer_fixtures.cpp
    LIBS folio_engine_internal
    LABELS engine)
