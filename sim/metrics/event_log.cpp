#include "sim/metrics/event_log.h"

#include "sim/core/csv_format.h"

namespace sharesim {

EventLog::EventLog(ClusterRuntime& runtime) : runtime_(runtime), text_("time_s,event,job,detail\n") {
  runtime.add_job_event_listener(*this);
}

void EventLog::job_event(SimTime time, std::string_view event, std::uint32_t job, std::string_view detail) {
  CsvRow(text_).seconds(time).text(event).text(runtime_.job_name(runtime_.jobs()[job])).text(detail).end();
}

}  // namespace sharesim
