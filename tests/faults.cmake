# Fault injection on the engine (issue #11): files changing under the mappings, cancel storms,
# model switches mid-stream, hostile sizes.
folio_add_test(test_faults SOURCES faults/test_faults.cpp
               LIBS folio_engine_internal LABELS engine threads TIMEOUT 300)
