// Precompiled for the suites that drive the workbench's widgets (tests/CMakeLists.txt: the
// "ui" host). Only system and Qt headers: they never change while Folio is built.
#pragma once
#include <QtTest>
#include <QtWidgets>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>
