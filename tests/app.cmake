folio_add_test(test_cli SOURCES app/test_cli.cpp LIBS folio_engine LABELS app)
add_dependencies(test_cli folio-cli)
