#pragma once
// Catch2 v2 (Debian 12) and v3 (Ubuntu 24.04) behind one include.
#if KBENCH_CATCH2_MAJOR >= 3
#include <catch2/catch_approx.hpp>
#include <catch2/catch_message.hpp>  // INFO, WARN
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers.hpp>  // CHECK_THROWS_WITH
using Catch::Approx;
#else
#include <catch2/catch.hpp>
#endif

#include <string>

/// True when `text` contains `part` (portable across Catch2 versions, unlike the matchers).
inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
