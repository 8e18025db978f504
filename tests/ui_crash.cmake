# Data safety (issue #11): chats written by ChatStore survive kill -9 at any moment.
if(FOLIO_BUILD_UI)
    add_executable(chat_save_loop ui/chat/chat_save_loop.cpp)
    target_link_libraries(chat_save_loop PRIVATE folio_ui)
    folio_warnings(chat_save_loop)
    folio_add_test(test_chat_crash SOURCES ui/chat/test_chat_crash.cpp LIBS folio_ui LABELS ui TIMEOUT 180)
    add_dependencies(test_chat_crash chat_save_loop)
endif()
