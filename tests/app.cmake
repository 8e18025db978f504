folio_add_test(test_cli SOURCES app/cli/test_cli.cpp LIBS folio_engine LABELS app)
add_dependencies(test_cli folio-cli)
