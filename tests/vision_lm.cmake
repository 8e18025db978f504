# Vision + language (issue 8): decoder input embeddings, `<__media__>` prompt assembly and the
# kimivl pair against llama.cpp's golden (the conformance data's vision pair), in-process and
# via folio-cli.
folio_add_test(test_vision_lm
    SOURCES engine/model/vision/test_vision_lm.cpp
    LIBS folio_engine_internal
    LABELS engine)
add_dependencies(test_vision_lm folio-cli)
