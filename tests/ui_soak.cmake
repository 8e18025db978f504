# The soak test of issue #25: random actions on the real window for FOLIO_SOAK_SECONDS (20 s by
# default; CI runs it for 120 s in the asan build, .ci/run). For runs longer than a few minutes
# start the binary itself: ctest stops it after TIMEOUT.
if(FOLIO_BUILD_UI)
    folio_add_test(test_soak SOURCES ui/test_soak.cpp LIBS folio_ui folio_engine_internal
                   LABELS ui soak TIMEOUT 900)
    add_dependencies(test_soak folio_samples folio_demo_model folio-cli)
endif()
if(FOLIO_BUILD_UI AND FOLIO_SANITIZE)
    # LeakSanitizer on for this suite alone (the asan test preset turns it off for the rest).
    set_property(TEST test_soak APPEND PROPERTY ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1")
endif()
