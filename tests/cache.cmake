folio_add_test(test_paged_cache SOURCES engine/cache/test_paged_cache.cpp LIBS folio_engine_internal LABELS engine threads TIMEOUT 300)
folio_add_test(test_snapshots SOURCES engine/cache/test_snapshots.cpp LIBS folio_engine_internal LABELS engine threads TIMEOUT 300)
folio_add_test(test_cli_cache SOURCES app/cli/test_cli_cache.cpp LABELS tools TIMEOUT 300)
add_dependencies(test_cli_cache folio-cli folio_demo_model)
