if(FOLIO_BUILD_UI)
    # The document-cache folder and its index on real files (issue #22 §4).
    folio_add_test(test_doc_cache_index SOURCES ui/doc_cache/test_doc_cache_index.cpp LIBS folio_ui LABELS ui TIMEOUT 60)
endif()

if(FOLIO_BUILD_UI)
    # Background reading and the restart through EngineWorker on the demo model.
    folio_add_test(test_document_reading SOURCES ui/doc_cache/test_document_reading.cpp LIBS folio_ui LABELS ui TIMEOUT 240)
    add_dependencies(test_document_reading folio_samples folio_demo_model)
    set_tests_properties(test_document_reading PROPERTIES RUN_SERIAL TRUE)
endif()

if(FOLIO_BUILD_UI)
    # Defaults for long documents (context, KV type, RAM budget, disk tier).
    folio_add_test(test_long_context_defaults SOURCES ui/backend/test_long_context_defaults.cpp LIBS folio_ui LABELS ui TIMEOUT 60)
    add_dependencies(test_long_context_defaults folio_demo_model)
endif()

if(FOLIO_BUILD_UI)
    # The restart through the real window: the chat reopens its document and the first question
    # reuses the saved document cache.
    folio_add_test(test_workbench_restart SOURCES ui/window/test_workbench_restart.cpp LIBS folio_ui LABELS ui TIMEOUT 300)
    add_dependencies(test_workbench_restart folio_demo_model)
    set_tests_properties(test_workbench_restart PROPERTIES RUN_SERIAL TRUE)
endif()

if(FOLIO_BUILD_UI)
    # The reading line's time left follows the measured rate and grows while no progress
    # arrives (issue #48 §9; scripted clock).
    folio_add_test(test_reading_eta SOURCES ui/doc_cache/test_reading_eta.cpp LIBS folio_ui LABELS ui TIMEOUT 30)
endif()

if(FOLIO_BUILD_UI)
    # Background reading resumes from its checkpoint after the reader is killed with SIGKILL.
    folio_add_test(test_reading_resume SOURCES ui/doc_cache/test_reading_resume.cpp LIBS folio_ui LABELS ui TIMEOUT 240)
    add_dependencies(test_reading_resume folio_samples folio_demo_model)
    set_tests_properties(test_reading_resume PROPERTIES RUN_SERIAL TRUE)
endif()
