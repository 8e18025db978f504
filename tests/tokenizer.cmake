folio_add_test(test_tokenizer
    SOURCES tokenizer/test_tokenizer.cpp tokenizer/tokenizer_fixtures.cpp
    LIBS folio_engine_internal
    LABELS engine)
