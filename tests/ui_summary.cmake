if(FOLIO_BUILD_UI)
    # "Summarize document" in the main window, with a scripted backend, on the 300-page report.
    folio_add_test(test_summary_runner SOURCES ui/jobs/test_summary_runner.cpp LIBS folio_ui
                   LABELS ui TIMEOUT 120)
    add_dependencies(test_summary_runner folio_samples)
endif()
