#pragma once
// ChatBackend for an OpenAI-compatible HTTP server (vLLM, SGLang, `folio-cli serve`): streams
// /v1/chat/completions (messages) or /v1/completions (prompt text or token ids) as server-sent
// events. Each request runs on its own thread; callbacks run there. No Qt.
//
// * Connection failures before the first response byte are retried with exponential backoff
//   (also HTTP 502/503/504); everything after the first byte is never retried.
// * 4xx/5xx answers become an Error with the status and the server's message.
// * A stream that breaks mid-answer (connection lost, no [DONE]) is an error; the text received so
//   far stays in RequestStats::text (and was delivered through on_token).
// * Client-side statistics: TTFT from submit to the first text, decode t/s from the arrival of
//   the generated tokens; token counts from the server's usage when it sends one.
// * The API key goes only into the Authorization header; it is never logged or put in messages.
// * https:// works (cpp-httplib with OpenSSL; the system's CA store unless ca_cert_file is set).

#include "folio/chat_backend.h"

#include <memory>
#include <string>
#include <vector>

namespace folio {

struct RemoteOptions {
    std::string base_url; // "http://host:8000" or ".../v1"
    std::string api_key;  // "" : no Authorization header
    std::string model;    // the server's model id (see list_models)
    double connect_timeout_s = 5;
    double read_timeout_s = 300; // the longest silence accepted while waiting for bytes
    int max_retries = 3;         // extra attempts for connection failures before the first byte
    double backoff_ms = 250;     // first retry delay, doubled each time
    bool token_ids = false;      // ask for token ids (vLLM's / our return_token_ids extension)
    std::string ca_cert_file;    // https: a PEM bundle instead of the system's
    bool verify_tls = true;
};

struct RemoteModel {
    std::string id;
    std::string owned_by;
    int64_t context_length = 0; // when the server says (vLLM's max_model_len, ours)
    // meta.vision of folio-cli serve: false when the server has no vision projector (images
    // would be refused); servers that do not say (vLLM, SGLang) are taken to accept them.
    bool accepts_images = true;
};

class RemoteBackend : public ChatBackend {
public:
    explicit RemoteBackend(RemoteOptions options);
    ~RemoteBackend() override; // cancels what runs and joins its threads

    // Checks the URL (scheme, host); the backend is unusable when this fails.
    Expected<void> valid() const;
    // GET /v1/models (blocking, with the same retries).
    Expected<std::vector<RemoteModel>> list_models();

    RequestId submit(Request request) override;
    void cancel(RequestId id) override;
    void cancel_all() override;
    void wait(RequestId id) override;
    ChatBackendStatus status() const override;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace folio
