folio_add_test(test_deepseek2 SOURCES engine/model/test_deepseek2.cpp LIBS folio_engine_internal LABELS engine TIMEOUT 600)
folio_add_test(test_sampler SOURCES engine/runtime/test_sampler.cpp LIBS folio_engine_internal LABELS engine)
# Flash-style prefill attention (engine/model/attention_flash.cpp) against the full-matrix form.
folio_add_test(test_attention_flash SOURCES engine/model/test_attention_flash.cpp LIBS folio_engine_internal LABELS engine)
