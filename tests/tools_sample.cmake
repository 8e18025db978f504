if(FOLIO_BUILD_UI)
    # tools/sample's long reports, read back with the workbench's document loader (QtPdf).
    folio_add_test(test_long_report SOURCES tools/test_long_report.cpp LIBS folio_core
                   LABELS tools TIMEOUT 120)
    add_dependencies(test_long_report folio-make-sample folio_samples)
endif()
