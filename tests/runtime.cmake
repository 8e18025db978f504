folio_add_test(test_engine SOURCES engine/runtime/test_engine.cpp LIBS folio_engine_internal LABELS engine threads TIMEOUT 300)
