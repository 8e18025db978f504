# The prefill GEMMs (engine/kernels/gemm_*.cpp) against their references.
folio_add_test(test_gemm SOURCES engine/kernels/test_gemm.cpp LIBS folio_engine_internal LABELS engine)
folio_add_test(test_gemm_kquant SOURCES engine/kernels/test_gemm_kquant.cpp
               LIBS folio_engine_internal LABELS engine)
# The f32 GEMMs of prefill attention (engine/kernels/gemm_f32*.cpp) against float64.
folio_add_test(test_gemm_f32 SOURCES engine/kernels/test_gemm_f32.cpp LIBS folio_engine_internal LABELS engine)
# The KDA in-chunk kernels (engine/kernels/kda_chunk*.cpp) against float64.
folio_add_test(test_kda_chunk SOURCES engine/kernels/test_kda_chunk.cpp LIBS folio_engine_internal LABELS engine)
# The kernels' per-thread scratch counted in the memory statistics (engine/kernels/thread_scratch.h).
folio_add_test(test_thread_scratch SOURCES engine/kernels/test_thread_scratch.cpp
               LIBS folio_engine_internal LABELS engine)
