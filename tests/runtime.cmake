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
