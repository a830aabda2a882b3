#include "sim/runtime/job_record.h"

namespace sharesim {

std::string_view job_state_name(JobState state) {
  switch (state) {
    case JobState::Pending:
      return "pending";
    case JobState::Running:
      return "running";
    case JobState::Completed:
      return "completed";
    case JobState::Failed:
      return "failed";
  }
  return "?";
}

}  // namespace sharesim
