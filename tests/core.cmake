if(FOLIO_BUILD_UI)
    # The workbench's chats without widgets (issue #45): the library, its store, message edits.
    folio_add_test(test_chat_library SOURCES core/chat/test_chat_library.cpp LIBS folio_core
                   LABELS core TIMEOUT 60)
endif()
if(FOLIO_BUILD_UI)
    # Every file read once for every chat (issue #48 §6).
    folio_add_test(test_loaded_documents SOURCES core/documents/test_loaded_documents.cpp
                   LIBS folio_core LABELS core TIMEOUT 180)
    add_dependencies(test_loaded_documents folio_samples)
endif()
