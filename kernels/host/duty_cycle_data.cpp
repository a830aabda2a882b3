#include "kernels/host/duty_cycle_data.h"

#include <cstddef>

namespace sharesim::calib {

double duty_speed(const DutyProcess& p, double kernel_ns) {
  const double taken = static_cast<double>(p.host_ns + p.busy_ns);
  const double alone = static_cast<double>(p.host_ns) + static_cast<double>(p.kernels) * kernel_ns;
  return taken > 0 ? alone / taken : 0;
}

double solo_kernel_ns(const DutyProcess& alone) {
  return alone.kernels > 0 ? static_cast<double>(alone.busy_ns) / static_cast<double>(alone.kernels) : 0;
}

double mean_gpu_util_pct(const DutyCase& c) {
  constexpr std::size_t kSkip = 10;  // 1 s of 100 ms samples
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t i = kSkip; i < c.nvidia_smi.size(); ++i) {
    sum += c.nvidia_smi[i][0];
    ++n;
  }
  return n > 0 ? sum / static_cast<double>(n) : -1;
}

}  // namespace sharesim::calib
