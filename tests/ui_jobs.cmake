if(FOLIO_BUILD_UI)
    # The request channel (issue #45 §2): jobs and the chat each get exactly their own tokens
    # (scripted backend, the 300-page report), and a job leaves the chat's cached prefix in
    # place (demo model).
    folio_add_test(test_job_requests SOURCES ui/jobs/test_job_requests.cpp LIBS folio_ui
                   LABELS ui TIMEOUT 180)
    add_dependencies(test_job_requests folio_samples folio_demo_model)
    set_tests_properties(test_job_requests PROPERTIES RUN_SERIAL TRUE)
endif()
