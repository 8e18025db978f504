# Scanned pages and charts through the vision model (issue #23): the Markdown table parser and
# its exports, PDF pages rendered at the projector's resolution, the image token count of a
# rendered page against the engine's run, and "Extract table" end to end with a scripted model.
if(FOLIO_BUILD_UI)
    folio_add_test(test_markdown_table SOURCES core/pipeline/test_markdown_table.cpp
                   LIBS folio_core LABELS ui TIMEOUT 60)
    folio_add_test(test_page_render SOURCES core/pipeline/test_page_render.cpp
                   LIBS folio_core LABELS ui TIMEOUT 120)
    add_dependencies(test_page_render folio_samples)
    folio_add_test(test_page_image_tokens SOURCES core/pipeline/test_page_image_tokens.cpp
                   LIBS folio_core folio_engine folio_engine_internal LABELS ui engine TIMEOUT 300)
    add_dependencies(test_page_image_tokens folio_samples)
    folio_add_test(test_scanned_pages SOURCES core/pipeline/test_scanned_pages.cpp
                   LIBS folio_ui LABELS ui engine TIMEOUT 300)
    add_dependencies(test_scanned_pages folio_samples)
    folio_add_test(test_table_extraction SOURCES ui/jobs/test_table_extraction.cpp
                   LIBS folio_ui LABELS ui TIMEOUT 120)
    add_dependencies(test_table_extraction folio_samples)
endif()
if(FOLIO_BUILD_UI)
    # Images per question: a crop selected on the page preview through the real window.
    folio_add_test(test_question_images SOURCES ui/chat/test_question_images.cpp
                   LIBS folio_ui LABELS ui engine TIMEOUT 300)
    add_dependencies(test_question_images folio_samples)
endif()
if(FOLIO_BUILD_UI)
    # Document caches with scanned pages as images: read ahead, restart, the whole prefix reused.
    folio_add_test(test_scanned_prefix SOURCES ui/doc_cache/test_scanned_prefix.cpp
                   LIBS folio_ui LABELS ui engine TIMEOUT 600)
    add_dependencies(test_scanned_prefix folio_samples)
    set_tests_properties(test_scanned_prefix PROPERTIES RUN_SERIAL TRUE)
endif()
