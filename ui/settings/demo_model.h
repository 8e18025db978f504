#pragma once
// Where the demo model is (the random-weights deepseek2 file the build generates and the
// package installs), and what to tell a user who has no model yet.

#include <QString>

namespace folio::ui {

// The demo model next to the program (build tree: <build>/generated/models, installed:
// <prefix>/share/folio/models), or "" when there is none.
QString findDemoModel();
// Rich text for the chat's notice on a first run without a model: a link "folio:demo" to load
// the demo model (when there is one) and where to get real GGUF files.
QString firstRunNotice(bool haveDemo);

} // namespace folio::ui
