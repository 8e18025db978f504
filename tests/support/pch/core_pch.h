// Precompiled for the suites that use QtTest without widgets (tests/CMakeLists.txt: the
// "core" host). Only system and Qt headers: they never change while Folio is built.
#pragma once
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>
