# Fit and finish of the workbench (issue #25): window size on small screens, palette and dark
# themes, shortcuts, translations, the keyring.
if(FOLIO_BUILD_UI)
    # A dark palette: the transcript, banners and chart take their colours from it.
    folio_add_test(test_palette SOURCES ui/test_palette.cpp LIBS folio_ui LABELS ui TIMEOUT 60)
endif()
