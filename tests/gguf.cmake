folio_add_test(test_gguf
    SOURCES engine/gguf/test_gguf.cpp engine/gguf/gguf_fixtures.cpp
            engine/gguf/malformed_corpus.cpp
    LIBS folio_engine_internal
    LABELS engine)

# The conformance files through the reader, inspect_model and `folio-cli info`.
folio_add_test(test_gguf_conformance
    SOURCES engine/gguf/test_gguf_conformance.cpp engine/gguf/gguf_fixtures.cpp
    LIBS folio_engine_internal
    LABELS engine)
# cliInfo runs the built folio-cli.
add_dependencies(test_gguf_conformance folio-cli)
