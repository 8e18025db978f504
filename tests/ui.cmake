if(FOLIO_BUILD_UI)
    folio_add_test(test_main_window SOURCES ui/window/test_main_window.cpp LIBS folio_ui LABELS ui TIMEOUT 180)
    add_dependencies(test_main_window folio_samples folio folio_demo_model)
    # Measures GUI timer latency during inference: no other test may load the cores meanwhile.
    set_tests_properties(test_main_window PROPERTIES RUN_SERIAL TRUE)
    folio_add_test(test_documents SOURCES ui/documents/test_documents.cpp LIBS folio_ui LABELS ui TIMEOUT 180)
    add_dependencies(test_documents folio_samples)
    folio_add_test(test_preview_menu SOURCES ui/documents/test_preview_menu.cpp LIBS folio_ui
                   LABELS ui TIMEOUT 120)
    add_dependencies(test_preview_menu folio_samples)
    # A match highlighted on its page (issue #46 §2): a checked figure opened, Find's match.
    folio_add_test(test_match_highlight SOURCES ui/documents/test_match_highlight.cpp
                   LIBS folio_ui LABELS ui TIMEOUT 120)
endif()

if(FOLIO_BUILD_UI)
    folio_add_test(test_workbench SOURCES ui/window/test_workbench.cpp LIBS folio_ui LABELS ui TIMEOUT 180)
    add_dependencies(test_workbench folio_samples folio folio_demo_model)
    # Runs the demo model: keep the cores to itself like test_main_window.
    set_tests_properties(test_workbench PROPERTIES RUN_SERIAL TRUE)
    folio_add_test(test_workbench_parts SOURCES ui/window/test_workbench_parts.cpp LIBS folio_ui LABELS ui TIMEOUT 120)
    # Pieces split from test_workbench_parts: a chat's prompt, the settings, the Devices pane.
    folio_add_test(test_chat_prompt SOURCES ui/chat/test_chat_prompt.cpp LIBS folio_ui LABELS ui TIMEOUT 120)
    folio_add_test(test_app_settings SOURCES ui/settings/test_app_settings.cpp LIBS folio_ui LABELS ui TIMEOUT 120)
    folio_add_test(test_devices_pane SOURCES ui/devices/test_devices_pane.cpp LIBS folio_ui LABELS ui TIMEOUT 120)
    folio_add_test(test_chat_controller SOURCES ui/chat/test_chat_controller.cpp LIBS folio_ui LABELS ui TIMEOUT 60)
    # Every figure of an answer checked and marked in the transcript (issue #46 §2).
    folio_add_test(test_figure_marks SOURCES ui/chat/test_figure_marks.cpp LIBS folio_ui LABELS ui TIMEOUT 60)
    add_dependencies(test_figure_marks folio_samples)
    folio_add_test(test_chat_versions SOURCES ui/chat/test_chat_versions.cpp LIBS folio_ui LABELS ui TIMEOUT 60)
    # Citations follow their document by fingerprint, not by its place (issue #48 §1).
    folio_add_test(test_cited_documents SOURCES ui/chat/test_cited_documents.cpp LIBS folio_ui LABELS ui TIMEOUT 60)
    folio_add_test(test_chat_export SOURCES core/export/test_chat_export.cpp LIBS folio_ui LABELS ui TIMEOUT 60)
    # A new chat starts without the last chat's documents (issue #48 §3).
    folio_add_test(test_chat_switch SOURCES ui/window/test_chat_switch.cpp LIBS folio_ui LABELS ui TIMEOUT 120)
    add_dependencies(test_chat_switch folio_samples)
    folio_add_test(test_document_visits SOURCES ui/window/test_document_visits.cpp LIBS folio_ui
                   LABELS ui TIMEOUT 180)
    add_dependencies(test_document_visits folio_samples)
    folio_add_test(test_partial_answer SOURCES ui/chat/test_partial_answer.cpp LIBS folio_ui
                   LABELS ui TIMEOUT 60)
    folio_add_test(test_status_lines SOURCES ui/window/test_status_lines.cpp LIBS folio_ui
                   LABELS ui TIMEOUT 180)
    add_dependencies(test_status_lines folio_demo_model)
    folio_add_test(test_projector_set_aside SOURCES ui/window/test_projector_set_aside.cpp
                   LIBS folio_ui LABELS ui TIMEOUT 300)
    folio_add_test(test_chat_documents SOURCES ui/chat/test_chat_documents.cpp LIBS folio_ui LABELS ui TIMEOUT 300)
    add_dependencies(test_chat_documents folio_samples folio_demo_model)
    set_tests_properties(test_chat_documents PROPERTIES RUN_SERIAL TRUE)
endif()

if(FOLIO_BUILD_UI)
    # The workbench on a remote backend: a real `folio-cli serve` on the demo model, loopback.
    folio_add_test(test_workbench_remote SOURCES ui/window/test_workbench_remote.cpp
                   LIBS folio_ui LABELS ui remote TIMEOUT 180)
    add_dependencies(test_workbench_remote folio-cli folio_demo_model)
endif()

if(FOLIO_BUILD_UI)
    # Tool calls in the chat with a scripted model behind the ChatBackend interface.
    find_package(SQLite3 REQUIRED)
    folio_add_test(test_workbench_tools SOURCES ui/window/test_workbench_tools.cpp
                   LIBS folio_ui SQLite::SQLite3 LABELS ui TIMEOUT 120)
endif()
