if(FOLIO_BUILD_UI)
    folio_add_test(test_summarize SOURCES app/summarize/test_summarize.cpp LIBS folio_core
                   LABELS app TIMEOUT 300)
    add_dependencies(test_summarize folio-cli folio_samples folio_demo_model folio-make-sample)
    # The plan of summaries of any length, with a word counter and a scripted model.
    folio_add_test(test_summary_plan SOURCES app/summarize/test_summary_plan.cpp
                   LIBS folio_core LABELS app TIMEOUT 60)
endif()
