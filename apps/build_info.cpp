#include "apps/build_info.h"

#include "apps/scenario_run.h"
#include "build_commit.h"  // generated on every build: SHARESIM_GIT_COMMIT

namespace sharesim {

std::string_view sharesim_commit() { return SHARESIM_GIT_COMMIT; }

std::string sharesim_version_line() {
  return "sharesim " + std::string(sharesim_version()) + " (commit " + std::string(sharesim_commit()) + ")";
}

}  // namespace sharesim
