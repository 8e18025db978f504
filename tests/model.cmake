folio_add_test(test_deepseek2 SOURCES engine/model/test_deepseek2.cpp LIBS folio_engine_internal LABELS engine TIMEOUT 600)
folio_add_test(test_sampler SOURCES engine/runtime/test_sampler.cpp LIBS folio_engine_internal LABELS engine)
