#pragma once
// Device memory of the residents of one GPU, and the out-of-memory message policies without
// memory isolation give.
#include <cstdint>
#include <span>
#include <string>

#include "sim/cluster/gpu_sharing.h"

namespace sharesim {

inline std::int64_t resident_memory_mib(std::span<const Resident> residents) {
  std::int64_t total = 0;
  for (const Resident& r : residents) total += r.demand.mem_mib;
  return total;
}

// "OOM: CUDA out of memory: tried to allocate 20000 MiB; 90000 MiB in use of 81559 MiB".
inline std::string oom_message(std::int64_t asked_mib, std::int64_t in_use_mib, std::int64_t limit_mib) {
  return "OOM: CUDA out of memory: tried to allocate " + std::to_string(asked_mib) + " MiB; " +
         std::to_string(in_use_mib) + " MiB requested of " + std::to_string(limit_mib) + " MiB";
}

}  // namespace sharesim
