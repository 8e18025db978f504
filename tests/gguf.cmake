folio_add_test(test_gguf
    SOURCES engine/gguf/test_gguf.cpp engine/gguf/gguf_fixtures.cpp
    LIBS folio_engine_internal
    LABELS engine)
# cliInfo runs the built folio-cli.
add_dependencies(test_gguf folio-cli)
