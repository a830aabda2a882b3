#include "sim/sched/job.h"

#include <gtest/gtest.h>

namespace sharesim {
namespace {

TEST(ShapeTable, EqualShapesShareAnIndexAndAnyDifferenceMakesANewOne) {
  ShapeTable table;
  PodShape base;
  base.gpu_units = 1;
  base.cpu_milli = 4000;
  const std::uint32_t first = table.intern(base);
  EXPECT_EQ(table.intern(base), first);
  PodShape other_product = base;
  other_product.gpu_product = "NVIDIA-A100-SXM4-80GB";
  PodShape other_demand = base;
  other_demand.demand.sm = 0.5;  // not part of the hash: found unequal by comparison
  const std::uint32_t second = table.intern(other_product);
  const std::uint32_t third = table.intern(other_demand);
  EXPECT_NE(second, first);
  EXPECT_NE(third, first);
  EXPECT_NE(third, second);
  EXPECT_EQ(table.intern(other_demand), third);
  ASSERT_EQ(table.shapes.size(), 3u);
  EXPECT_EQ(table.shapes[second].gpu_product, "NVIDIA-A100-SXM4-80GB");
  for (int i = 0; i < 5000; ++i) {  // many shapes: every one found again at its own index
    PodShape shape = base;
    shape.memory_mib = i;
    const std::uint32_t index = table.intern(shape);
    EXPECT_EQ(table.intern(shape), index);
    EXPECT_EQ(table.shapes[index].memory_mib, i);
  }
}

}  // namespace
}  // namespace sharesim
