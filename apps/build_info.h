#pragma once
// What the program was built from, for `sharesim --version`, timing.json and
// `sharesim-calibrate --version` (and the `tool` of its raw files).
#include <string>
#include <string_view>

namespace sharesim {

// "0.1.0": the project's version (CMakeLists.txt).
std::string_view sharesim_version();

// `git describe --always --dirty` of the source tree when the program was last built, "unknown"
// outside a git checkout; CMake option SHARESIM_BUILD_COMMIT sets it by hand
// (apps/CMakeLists.txt, docs/ci.md).
std::string_view sharesim_commit();

// "sharesim 0.1.0 (commit 1a2b3c4d5e6f)": what --version prints; `program` names the program
// ("sharesim-calibrate 0.1.0 (commit ...)").
std::string sharesim_version_line(std::string_view program = "sharesim");

}  // namespace sharesim
