# Fit and finish of the workbench (issue #25): window size on small screens, palette and dark
# themes, shortcuts, translations, the keyring.
if(FOLIO_BUILD_UI)
    # The real window on a 1366×768 screen, and on 1920×1080 at 150 % (1280×720 logical).
    folio_add_test(test_window_fit SOURCES ui/window/test_window_fit.cpp LIBS folio_ui LABELS ui TIMEOUT 120)
    add_test(NAME test_window_fit_150 COMMAND test_window_fit --screen 1920x1080@1.5)
    set_tests_properties(test_window_fit_150 PROPERTIES TIMEOUT 120 LABELS ui
        ENVIRONMENT "QT_QPA_PLATFORM=offscreen;FOLIO_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp;OMP_WAIT_POLICY=PASSIVE;FOLIO_KEYRING=none")
endif()

if(FOLIO_BUILD_UI)
    # A dark palette: the transcript, banners and chart take their colours from it.
    folio_add_test(test_palette SOURCES ui/style/test_palette.cpp LIBS folio_ui LABELS ui TIMEOUT 60)
endif()

if(FOLIO_BUILD_UI)
    # Enter / Shift+Enter, Ctrl+N, Ctrl+O, Ctrl+, and Ctrl+F, and drops, on the real window.
    folio_add_test(test_shortcuts SOURCES ui/window/test_shortcuts.cpp LIBS folio_ui LABELS ui TIMEOUT 120)
    add_dependencies(test_shortcuts folio_samples)
endif()

if(FOLIO_BUILD_UI)
    # The window in Simplified Chinese (LC_ALL=zh_CN.UTF-8): the .qm built from translations/.
    folio_add_test(test_zh_cn SOURCES ui/i18n/test_zh_cn.cpp LIBS folio_ui LABELS ui TIMEOUT 60)
endif()

if(FOLIO_BUILD_UI)
    # The API key in the system keyring, its fallback to folio.conf, and the move of an old key.
    folio_add_test(test_keyring SOURCES ui/settings/test_keyring.cpp LIBS folio_ui LABELS ui TIMEOUT 60)
endif()

if(FOLIO_BUILD_UI)
    # Engine errors shown as translated sentences with the English details kept (issue #48 §14).
    folio_add_test(test_user_errors SOURCES ui/i18n/test_user_errors.cpp LIBS folio_ui LABELS ui TIMEOUT 60)
endif()
