#pragma once
// folio::Request → the JSON body of an OpenAI-compatible request: /chat/completions for
// messages (images as base64 data URLs), /completions for a prompt text or prompt token ids.

#include "folio/engine.h"

#include <string>

namespace folio::remote {

struct BodyOptions {
    std::string model;
    bool stream = true;
    bool token_ids = false; // ask for choices[].token_ids (vLLM and folio-cli serve)
};

struct RequestBody {
    std::string path_suffix; // "/chat/completions" or "/completions"
    std::string json;
};

Expected<RequestBody> make_request_body(const Request& r, const BodyOptions& o);

// An image as a data URL: files as they are (PNG, JPEG, BMP, GIF by their first bytes), raw RGB
// pixels as a 24-bit BMP.
Expected<std::string> image_data_url(const ImageInput& image);

} // namespace folio::remote
