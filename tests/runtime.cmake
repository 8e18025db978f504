folio_add_test(test_engine SOURCES engine/runtime/test_engine.cpp LIBS folio_engine_internal LABELS engine threads TIMEOUT 300)
folio_add_test(test_engine_documents SOURCES engine/runtime/test_engine_documents.cpp LIBS folio_engine_internal LABELS engine threads TIMEOUT 300)
add_dependencies(test_engine_documents folio_demo_model)
