folio_add_test(test_engine SOURCES engine/runtime/test_engine.cpp LIBS folio_engine_internal LABELS engine threads TIMEOUT 300)
folio_add_test(test_engine_documents SOURCES engine/runtime/test_engine_documents.cpp LIBS folio_engine_internal LABELS engine threads TIMEOUT 300)
add_dependencies(test_engine_documents folio_demo_model)
folio_add_test(test_context_plan SOURCES engine/runtime/test_context_plan.cpp LIBS folio_engine_internal LABELS engine)
add_dependencies(test_context_plan folio_demo_model)
# Projector outputs cached by image content on disk, and the image progress of a request.
folio_add_test(test_image_embeddings SOURCES engine/runtime/test_image_embeddings.cpp LIBS folio_engine_internal LABELS engine TIMEOUT 300)
# Where the weights live: copied into RAM with huge pages or mapped (runtime/weights_memory.h).
folio_add_test(test_weights_memory SOURCES engine/runtime/test_weights_memory.cpp LIBS folio_engine_internal LABELS engine)
add_dependencies(test_weights_memory folio-cli)
# Idle engine threads sleep after a request (the process's CPU time over 300 ms idle). Without
# OMP_WAIT_POLICY=PASSIVE, which every other suite runs under: the engine's own policy is tested.
folio_add_test(test_idle_threads SOURCES engine/runtime/test_idle_threads.cpp LIBS folio_engine_internal LABELS engine threads TIMEOUT 120)
add_dependencies(test_idle_threads folio-cli)
set_tests_properties(test_idle_threads PROPERTIES
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;FOLIO_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp;FOLIO_KEYRING=none"
    ENVIRONMENT_MODIFICATION "OMP_WAIT_POLICY=unset:;GOMP_SPINCOUNT=unset:")
