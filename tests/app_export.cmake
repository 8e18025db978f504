if(FOLIO_BUILD_UI)
    # `folio-cli export`: a saved chat as Markdown, HTML, PDF and JSON without the window.
    folio_add_test(test_export_cli SOURCES app/export/test_export_cli.cpp LIBS folio_core
                   LABELS app TIMEOUT 120)
    add_dependencies(test_export_cli folio-cli)
endif()
