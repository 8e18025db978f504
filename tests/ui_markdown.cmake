if(FOLIO_BUILD_UI)
    # Answers displayed as written: "<" and "&" escaped before Markdown is rendered (issue #48).
    folio_add_test(test_markdown_literal SOURCES core/pipeline/test_markdown_literal.cpp
                   LIBS folio_core LABELS ui TIMEOUT 60)
endif()
