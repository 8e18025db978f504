// Precompiled for folio_client and folio_serve (their CMakeLists.txt): cpp-httplib and nlohmann
// json are most of what each of their files parses. Only system headers, which never change
// while Folio is built.
#pragma once
#include <httplib.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>
