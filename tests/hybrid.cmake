# Hybrid attention (issue 6): kimi-linear (KDA + NoPE MLA), deepseek32 (DSA indexer) and our
# kimi-hybrid, against llama.cpp's goldens and against themselves.
folio_add_test(test_hybrid_models SOURCES engine/model/test_hybrid_models.cpp
               LIBS folio_engine_internal LABELS engine TIMEOUT 300)
folio_add_test(test_kda SOURCES engine/model/mixers/test_kda.cpp LIBS folio_engine_internal LABELS engine)
folio_add_test(test_hybrid_generators SOURCES tools/test_hybrid_generators.cpp
               LIBS folio_tools folio_engine_internal LABELS engine tools TIMEOUT 300)
folio_add_test(test_dsa_indexer SOURCES engine/model/mixers/test_dsa_indexer.cpp
               LIBS folio_engine_internal LABELS engine TIMEOUT 300)
