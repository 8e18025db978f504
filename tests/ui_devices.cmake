if(FOLIO_BUILD_UI)
    # The Devices pane's numbers: rates from engine counters, gaps, ticks, the KV budget bar,
    # Folio's memory by category, human-readable durations (no model, no window system).
    folio_add_test(test_devices_numbers SOURCES ui/devices/test_devices_numbers.cpp
                   LIBS folio_ui folio_engine_internal LABELS ui TIMEOUT 60)
endif()
