folio_add_test(test_paged_cache SOURCES cache/test_paged_cache.cpp model/goldens.cpp LIBS folio_engine_internal LABELS engine TIMEOUT 300)
