find_package(SQLite3 REQUIRED)
folio_add_test(test_agent SOURCES engine/agent/test_agent.cpp LIBS folio_engine_internal SQLite::SQLite3 LABELS engine)
