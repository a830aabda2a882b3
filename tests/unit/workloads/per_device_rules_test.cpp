// The workload reader checks a request's per-device quantities against the rules it is given
// (each policy's, policies/policy_registry.h), and names no quantity itself.
#include <gtest/gtest.h>

#include "sim/cluster/gpu_catalog.h"
#include "sim/input/input_error.h"
#include "workloads/workload_context.h"

namespace sharesim {
namespace {

struct Reader {
  ShapeTable shapes;
  std::vector<JobOrigin> origins;
  ResourceNames names;
  PerDeviceResourceRules rules;
  WorkloadContext context{shapes, origins, names, GpuCatalog::builtin(), rules, "s.json", ".", 1};

  explicit Reader(PerDeviceResourceRules given) : rules(std::move(given)) {}
  std::uint32_t read(const nlohmann::json& limits) {
    return context.shape_from_request({{"limits", limits}}, "/workload/jobs/0/request");
  }
};

PerDeviceResourceRules share_rules() {
  PerDeviceResourceRules rules;
  rules.rules = {{"example.com/share", "nvidia.com/gpu", 10, 100, 10, "a test share", "the share"},
                 {"example.com/share-permille", "nvidia.com/gpu", 1, 1000, 1, "a finer test share", "the share"}};
  rules.gpu_fraction_percent = {"example.com/share"};
  return rules;
}

TEST(PerDeviceRules, AQuantityTheRulesNameIsTakenPerDevice) {
  Reader reader(share_rules());
  const PodShape& shape = reader.shapes.shapes[reader.read({{"nvidia.com/gpu", 1}, {"example.com/share", 30}})];
  EXPECT_EQ(shape.gpu_units, 1);
  ASSERT_EQ(shape.gpu_per_device.count, 1);
  EXPECT_EQ(shape.gpu_per_device.of(reader.names.intern("example.com/share")), 30);
}

TEST(PerDeviceRules, ItsRangeAndStepAreChecked) {
  Reader reader(share_rules());
  try {
    reader.read({{"nvidia.com/gpu", 1}, {"example.com/share", 35}});
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "/workload/jobs/0/request/limits/example.com~1share");
    EXPECT_EQ(e.problem(), "expected a multiple of 10 from 10 to 100, found 35; a test share");
  }
}

TEST(PerDeviceRules, TwoQuantitiesThatSetTheSameThingAreRefused) {
  Reader reader(share_rules());
  try {
    reader.read({{"nvidia.com/gpu", 1}, {"example.com/share", 30}, {"example.com/share-permille", 300}});
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.problem(),
              "expected either \"example.com/share\" or \"example.com/share-permille\", found both (each sets the "
              "share)");
  }
}

TEST(PerDeviceRules, WithoutRulesEveryOtherKeyIsASecondDeviceResource) {
  Reader reader(PerDeviceResourceRules{});
  EXPECT_THROW(reader.read({{"nvidia.com/gpu", 1}, {"example.com/share", 30}}), InputError);
}

TEST(PerDeviceRules, AGpuFractionBecomesTheRulesPercentQuantities) {
  Reader with(share_rules());
  const std::uint32_t whole = with.read({{"nvidia.com/gpu", 1}});
  const PodShape& fractional = with.shapes.shapes[with.context.with_gpu_fraction(whole, 251)];
  ASSERT_EQ(fractional.gpu_per_device.count, 1);
  EXPECT_EQ(fractional.gpu_per_device.of(with.names.intern("example.com/share")), 26);  // ceil(25.1)

  Reader without(PerDeviceResourceRules{});
  const std::uint32_t shape = without.read({{"nvidia.com/gpu", 1}});
  EXPECT_EQ(without.context.with_gpu_fraction(shape, 251), shape);  // whole devices: the fraction is ignored
}

}  // namespace
}  // namespace sharesim
