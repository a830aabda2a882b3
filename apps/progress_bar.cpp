#include "apps/progress_bar.h"

#include <cstdio>

namespace sharesim {

ProgressBar::ProgressBar(SimTime until, const ClusterRuntime& runtime, std::string prefix)
    : until_(until), runtime_(runtime), prefix_(std::move(prefix)), start_(Clock::now()), last_(start_) {}

void ProgressBar::update(SimTime now) {
  const auto t = Clock::now();
  if (t - start_ < std::chrono::seconds(1) || t - last_ < std::chrono::milliseconds(100)) return;
  last_ = t;
  shown_ = true;
  std::string line = "\r" + prefix_;
  if (until_ != kTimeNever) {
    const double fraction = static_cast<double>(now) / static_cast<double>(until_);
    const int filled = static_cast<int>(fraction * 30);
    line += "[" + std::string(static_cast<std::size_t>(filled), '#') +
            std::string(static_cast<std::size_t>(30 - filled), '.') + "] " +
            std::to_string(static_cast<int>(fraction * 100)) + "%  ";
  }
  line += "sim " + format_duration(now) + "  " + std::to_string(runtime_.counters().completed) + " jobs done   ";
  std::fputs(line.c_str(), stderr);
}

void ProgressBar::finish() {
  if (shown_) std::fputs("\n", stderr);
}

}  // namespace sharesim
