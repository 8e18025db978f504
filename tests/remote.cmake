# folio-cli serve and RemoteBackend on loopback: a real server process (QProcess) on a
# conformance model, the embedded Engine as the reference, a bounded load test.
folio_add_test(test_remote SOURCES app/serve/test_remote.cpp app/serve/request_bodies.cpp
               LIBS folio_client_internal folio_serve LABELS remote TIMEOUT 120)
add_dependencies(test_remote folio-cli)
# The server's HTTP status codes, headers and /metrics counters, on the same kind of process.
folio_add_test(test_server_http SOURCES app/serve/test_server_http.cpp app/serve/request_bodies.cpp
               LIBS folio_client_internal folio_serve LABELS remote TIMEOUT 120)
add_dependencies(test_server_http folio-cli)
# RemoteBackend against scripted in-process servers (retries, broken streams, error bodies, TLS).
folio_add_test(test_remote_client SOURCES client/test_remote_client.cpp
               LIBS folio_client_internal LABELS remote threads TIMEOUT 60)
# Server and clients in one process: what the tsan job checks (child processes abort in LLVM
# 14's ThreadSanitizer after fork, so test_remote's server process cannot run there).
folio_add_test(test_remote_inprocess SOURCES app/serve/test_remote_inprocess.cpp
               LIBS folio_client_internal folio_serve LABELS remote threads TIMEOUT 300)
