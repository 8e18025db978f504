if(FOLIO_BUILD_UI)
    # `folio --help` / `--version` as a user runs them, without a display (issue 48, item 13).
    folio_add_test(test_folio_args SOURCES app/gui/test_folio_args.cpp LIBS folio_engine LABELS app
                   TIMEOUT 120)
    add_dependencies(test_folio_args folio)
endif()
