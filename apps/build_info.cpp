#include "apps/build_info.h"

#include "apps/scenario_run.h"

namespace sharesim {

std::string_view sharesim_commit() { return SHARESIM_GIT_COMMIT; }

std::string sharesim_version_line() {
  return "sharesim " + std::string(sharesim_version()) + " (commit " + std::string(sharesim_commit()) + ")";
}

}  // namespace sharesim
