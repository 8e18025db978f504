if(FOLIO_BUILD_UI)
    folio_add_test(test_summarize SOURCES app/summarize/test_summarize.cpp LABELS app TIMEOUT 120)
    add_dependencies(test_summarize folio-cli folio_samples folio_demo_model)
endif()
