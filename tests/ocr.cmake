# OCR of pages without a text layer (issue #46 §1, core/ocr): which pages need it, Tesseract's
# reading of the sample report's scanned page and of a generated Chinese scan (character
# accuracy measured), the on-disk cache (round trip, damaged entries), the background runner
# (progress, cancellation, a restart reads nothing again) and bad input.
if(FOLIO_BUILD_UI)
    folio_add_test(test_ocr_classify SOURCES core/ocr/test_ocr_classify.cpp LIBS folio_ocr
                   LABELS ocr TIMEOUT 120)
    add_dependencies(test_ocr_classify folio_samples)
    folio_add_test(test_ocr_read SOURCES core/ocr/test_ocr_read.cpp LIBS folio_ocr
                   LABELS ocr TIMEOUT 600)
    add_dependencies(test_ocr_read folio_samples)
    folio_add_test(test_ocr_cache SOURCES core/ocr/test_ocr_cache.cpp LIBS folio_ocr
                   LABELS ocr TIMEOUT 120)
    folio_add_test(test_ocr_runner SOURCES core/ocr/test_ocr_runner.cpp LIBS folio_ocr
                   LABELS ocr TIMEOUT 600)
endif()
if(FOLIO_BUILD_UI)
    # `folio-cli pages` and `bench-ocr` end to end.
    folio_add_test(test_ocr_cli SOURCES app/ocr/test_ocr_cli.cpp LABELS ocr app TIMEOUT 600)
    add_dependencies(test_ocr_cli folio-cli folio_samples)
endif()
