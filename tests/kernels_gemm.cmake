# The Q8_0 prefill GEMM (engine/kernels/gemm_q8_0*.cpp) against its reference.
folio_add_test(test_gemm SOURCES engine/kernels/test_gemm.cpp LIBS folio_engine_internal LABELS engine)
