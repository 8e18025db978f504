if(FOLIO_BUILD_UI)
    # Page lists, page ranking and selection, and prompt plans of long reports counted with the
    # demo model's tokenizer (issue #22).
    folio_add_test(test_page_selection SOURCES core/pipeline/test_page_selection.cpp
                   LIBS folio_ui LABELS ui TIMEOUT 300)
    add_dependencies(test_page_selection folio_demo_model)
endif()

if(FOLIO_BUILD_UI)
    # A question about a generated 300-page report through the real window (issue #22).
    folio_add_test(test_workbench_long SOURCES ui/window/test_workbench_long.cpp
                   LIBS folio_ui LABELS ui TIMEOUT 400)
    add_dependencies(test_workbench_long folio_demo_model)
    # Runs the demo model: keep the cores to itself like test_workbench.
    set_tests_properties(test_workbench_long PROPERTIES RUN_SERIAL TRUE)
endif()

if(FOLIO_BUILD_UI)
    # ChatController's send path with an exact counter: planned off the GUI thread (issue #22).
    folio_add_test(test_chat_planning SOURCES ui/chat/test_chat_planning.cpp
                   LIBS folio_ui LABELS ui TIMEOUT 120)
endif()
