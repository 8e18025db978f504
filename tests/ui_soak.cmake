# The soak test of issue #25: random actions on the real window for FOLIO_SOAK_SECONDS (20 s by
# default; CI runs it for 120 s in the asan build, .ci/run). For runs longer than a few minutes
# start the binary itself: ctest stops it after TIMEOUT.
if(FOLIO_BUILD_UI)
    folio_add_test(test_soak SOURCES ui/window/test_soak.cpp ui/window/soak_fixture.cpp
                   ui/window/soak_actions.cpp LIBS folio_ui folio_engine_internal
                   LABELS ui soak TIMEOUT 900)
    add_dependencies(test_soak folio_samples folio_demo_model folio-cli)
endif()
# LeakSanitizer stays off here as in the rest of the asan suites: at exit it reports ~80 KiB
# (2 min run) leaked inside Qt's own libraries (QtPdf's text extraction and asynchronous load,
# QScroller::grabGesture of QtCharts' legend with chart objects hanging from it), with stacks
# too shallow (Qt has no frame pointers) to suppress them without hiding leaks of ours.
