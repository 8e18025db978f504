if(FOLIO_BUILD_UI)
    # The workbench's chats without widgets (issue #45): the library, its store, message edits.
    folio_add_test(test_chat_library SOURCES core/chat/test_chat_library.cpp LIBS folio_core
                   LABELS core TIMEOUT 60)
    # An answer's figures checked against its documents, kept in the chat file (issue #46 §2).
    folio_add_test(test_answer_figures SOURCES core/chat/test_answer_figures.cpp LIBS folio_core
                   LABELS core TIMEOUT 60)
    add_dependencies(test_answer_figures folio_samples)
    # An extracted table's figures checked against the pages it came from (issue #46 §2).
    folio_add_test(test_table_figures SOURCES core/chat/test_table_figures.cpp
                   LIBS folio_core folio_figures LABELS core TIMEOUT 60)
    add_dependencies(test_table_figures folio_samples)
    # Exports carry the figures' marks and a table of every figure (issue #46 §2).
    folio_add_test(test_export_figures SOURCES core/export/test_export_figures.cpp LIBS folio_core
                   LABELS core TIMEOUT 60)
endif()
if(FOLIO_BUILD_UI)
    # Every file read once for every chat (issue #48 §6).
    folio_add_test(test_loaded_documents SOURCES core/documents/test_loaded_documents.cpp
                   LIBS folio_core LABELS core TIMEOUT 180)
    add_dependencies(test_loaded_documents folio_samples)
    # The shown chat's documents without widgets (issue #45 §1): open, reorder, pin, remove,
    # another chat's list, missing and changed files.
    folio_add_test(test_chat_documents_core SOURCES core/documents/test_chat_documents.cpp
                   LIBS folio_core LABELS core TIMEOUT 180)
    add_dependencies(test_chat_documents_core folio_samples)
endif()
if(FOLIO_BUILD_UI)
    # An ETA covers the whole job, follows the measured rate, never freezes (issue #48 §9):
    # scripted timelines, time passed in.
    folio_add_test(test_eta SOURCES core/pipeline/test_eta.cpp LIBS folio_core LABELS core
                   TIMEOUT 30)
endif()
