# Devices and the placement planner (engine/backend/).
folio_add_test(test_device_plan SOURCES engine/backend/test_device_plan.cpp LIBS folio_engine_internal LABELS engine)
add_dependencies(test_device_plan folio_demo_model)
