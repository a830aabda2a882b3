#include "apps/build_info.h"

#include "build_commit.h"  // generated on every build: SHARESIM_GIT_COMMIT

namespace sharesim {

std::string_view sharesim_version() { return SHARESIM_VERSION; }

std::string_view sharesim_commit() { return SHARESIM_GIT_COMMIT; }

std::string sharesim_version_line(std::string_view program) {
  return std::string(program) + " " + std::string(sharesim_version()) + " (commit " + std::string(sharesim_commit()) +
         ")";
}

}  // namespace sharesim
