if(FOLIO_BUILD_UI)
    # The document-cache folder and its index on real files (issue #22 §4).
    folio_add_test(test_doc_cache_index SOURCES ui/test_doc_cache_index.cpp LIBS folio_ui LABELS ui TIMEOUT 60)
endif()
