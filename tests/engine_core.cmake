folio_add_test(test_engine_core SOURCES engine/core/test_engine_core.cpp LIBS folio_engine_internal LABELS engine)
