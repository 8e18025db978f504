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
if(FOLIO_BUILD_UI)
    # A read document's scanned pages get their text (core/documents, LoadedDocuments): in the
    # background, cached (a restart reads nothing), cancelled, bad pages, missing languages.
    folio_add_test(test_document_ocr SOURCES core/documents/test_document_ocr.cpp
                   LIBS folio_core LABELS ocr core TIMEOUT 600)
    add_dependencies(test_document_ocr folio_samples)
endif()
if(FOLIO_BUILD_UI)
    # The Documents pane and Find with OCR text; the question's prompt and note with it.
    folio_add_test(test_documents_ocr SOURCES ui/documents/test_documents_ocr.cpp LIBS folio_ui
                   LABELS ocr ui TIMEOUT 600)
    add_dependencies(test_documents_ocr folio_samples)
    folio_add_test(test_ocr_prompt SOURCES ui/chat/test_ocr_prompt.cpp LIBS folio_ui
                   LABELS ocr ui TIMEOUT 600)
    add_dependencies(test_ocr_prompt folio_samples)
endif()
