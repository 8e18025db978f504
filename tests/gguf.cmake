folio_add_test(test_gguf
    SOURCES gguf/test_gguf.cpp gguf/gguf_fixtures.cpp
    LIBS folio_engine_internal
    LABELS engine)
# cliInfo runs the built folio-cli.
add_dependencies(test_gguf folio-cli)
