# Tensor types, quantizers and CPU kernels (engine/tensor/, engine/kernels/).
folio_add_test(test_quant SOURCES kernels/test_quant.cpp LIBS folio_engine_internal LABELS engine)
folio_add_test(test_kernels SOURCES kernels/test_kernels.cpp LIBS folio_engine_internal LABELS engine)
folio_add_test(test_iquants SOURCES kernels/test_iquants.cpp LIBS folio_engine_internal LABELS engine)
