#pragma once
// The optional event log of a run (events.csv, docs/outputs.md; scenario "output": {"event_log":
// true}): one CSV row per job event, time_s,event,job,detail, in the order they happened.
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/runtime/cluster_runtime.h"
#include "sim/runtime/job_event_listener.h"

namespace sharesim {

class EventLog final : public JobEventListener {
 public:
  // Registers itself with `runtime` (call before ClusterRuntime::start); the text starts with the
  // header row.
  explicit EventLog(ClusterRuntime& runtime);
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  void job_event(SimTime time, std::string_view event, std::uint32_t job, std::string_view detail) override;
  std::string_view text() const { return text_; }

 private:
  const ClusterRuntime& runtime_;
  std::string text_;
};

}  // namespace sharesim
