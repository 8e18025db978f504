if(FOLIO_BUILD_UI)
    # Report templates (issue #49 §1): the format's rules, line-numbered errors, the built-ins.
    folio_add_test(test_report_template SOURCES core/report/test_report_template.cpp
                   LIBS folio_core LABELS core TIMEOUT 30)
endif()
if(FOLIO_BUILD_UI)
    # A report made section by section with a scripted backend on the sample report (issue #49
    # §2–4): figures, saves, resume after a crash, failures, edits, cancel, export.
    folio_add_test(test_report_generator SOURCES core/report/test_report_generator.cpp
                   LIBS folio_core LABELS core TIMEOUT 120)
    add_dependencies(test_report_generator folio_samples)
endif()
if(FOLIO_BUILD_UI)
    # `folio-cli report` with the demo model (issue #49 §5): export, resume, bad input.
    folio_add_test(test_report_cli SOURCES app/report/test_report_cli.cpp LIBS folio_core
                   LABELS app TIMEOUT 300)
    add_dependencies(test_report_cli folio-cli folio_samples folio_demo_model)
endif()
if(FOLIO_BUILD_UI)
    # File → Reports… in the real window with a scripted backend (issue #49 §6).
    folio_add_test(test_reports_window SOURCES ui/reports/test_reports_window.cpp LIBS folio_ui
                   LABELS ui TIMEOUT 120)
    add_dependencies(test_reports_window folio_samples)
endif()
if(FOLIO_BUILD_UI)
    # The comparison template on two generated reports: cells cited to document and page.
    folio_add_test(test_report_comparison SOURCES core/report/test_report_comparison.cpp
                   LIBS folio_core LABELS core TIMEOUT 60)
endif()
if(FOLIO_BUILD_UI)
    # The zh_CN policy brief on a scanned Chinese file: quotes from the OCR text (Tesseract).
    folio_add_test(test_report_policy_scan SOURCES core/report/test_report_policy_scan.cpp
                   LIBS folio_core LABELS core ocr TIMEOUT 300)
endif()
