#include "sim/core/assert.h"

#include <cstdio>
#include <cstdlib>

namespace sharesim::detail {

// Out of line and cold, so that a check costs the callers one compare and branch.
[[gnu::cold]] void assertion_failed(const char* condition, const char* message, const char* file, int line) noexcept {
  std::fprintf(stderr, "sharesim: internal error: %s:%d: invariant `%s` does not hold: %s\n", file, line, condition,
               message);
  std::fflush(stderr);
  std::abort();
}

}  // namespace sharesim::detail
