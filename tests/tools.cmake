folio_add_test(test_make_model SOURCES tools/test_make_model.cpp LIBS folio_tools LABELS tools TIMEOUT 120)
folio_add_test(test_quantize SOURCES tools/test_quantize.cpp model/goldens.cpp LIBS folio_tools LABELS tools TIMEOUT 300)
folio_add_test(test_quantize_mixes SOURCES tools/test_quantize_mixes.cpp model/goldens.cpp LIBS folio_tools LABELS tools TIMEOUT 300)
add_dependencies(test_quantize_mixes folio-cli)
