#include "sim/sched/job.h"

namespace sharesim {

std::uint32_t ShapeTable::intern(const PodShape& shape) {
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (shapes[i] == shape) return static_cast<std::uint32_t>(i);
  }
  shapes.push_back(shape);
  return static_cast<std::uint32_t>(shapes.size() - 1);
}

}  // namespace sharesim
