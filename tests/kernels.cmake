# Tensor types, quantizers and CPU kernels (engine/tensor/, engine/kernels/).
folio_add_test(test_quant SOURCES engine/tensor/test_quant.cpp LIBS folio_engine_internal LABELS engine)
# The kernel tests by topic: matmul and the activation quantizers, the AVX-512 decode dots, row ops.
folio_add_test(test_kernels SOURCES engine/kernels/test_kernels.cpp LIBS folio_engine_internal LABELS engine)
folio_add_test(test_kernels_avx512 SOURCES engine/kernels/test_kernels_avx512.cpp LIBS folio_engine_internal LABELS engine)
folio_add_test(test_kernels_ops SOURCES engine/kernels/test_kernels_ops.cpp LIBS folio_engine_internal LABELS engine)
folio_add_test(test_thread_balance SOURCES engine/kernels/test_thread_balance.cpp LIBS folio_engine_internal LABELS engine)
folio_add_test(test_iquants SOURCES engine/tensor/test_iquants.cpp LIBS folio_engine_internal LABELS engine)
folio_add_test(test_quant_more SOURCES engine/tensor/test_quant_more.cpp LIBS folio_engine_internal LABELS engine)
# The llama-quantize file types of conformance/quant against llama.cpp's logits.
folio_add_test(test_quant_files SOURCES engine/model/test_quant_files.cpp LIBS folio_engine_internal LABELS engine TIMEOUT 300)
# Q1_0 and Q2_0 (issue 48 item 17): layouts, quantizers against llama-quantize's files, dots.
folio_add_test(test_q1_q2 SOURCES engine/tensor/test_q1_q2.cpp LIBS folio_engine_internal LABELS engine)
# The kernel path that runs, named by the benches beside the int8 probe of that path (#47 §3).
folio_add_test(test_kernel_path SOURCES engine/kernels/test_kernel_path.cpp LIBS folio_engine_internal LABELS engine TIMEOUT 300)
add_dependencies(test_kernel_path folio-cli)
