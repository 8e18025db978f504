if(FOLIO_BUILD_UI)
    # Page lists, page ranking and selection, and prompt plans of long reports counted with the
    # demo model's tokenizer (issue #22).
    folio_add_test(test_page_selection SOURCES ui/test_page_selection.cpp
                   LIBS folio_ui LABELS ui TIMEOUT 300)
    add_dependencies(test_page_selection folio_demo_model)
endif()
