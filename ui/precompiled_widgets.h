// Precompiled for folio_ui (ui/CMakeLists.txt): Qt Widgets is most of what each file parses.
// Only system and Qt headers, which never change while Folio is built.
#pragma once
#include <QtWidgets>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <vector>
