#include "apps/validation_policy.h"

#include <algorithm>

#include "policies/policy_registry.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/scenario/scenario.h"

namespace sharesim {

std::shared_ptr<PolicyUnderTest> make_validation_policy(const std::string& gpu_id, const nlohmann::json& sharing,
                                                        const MeasuredProfiles& measured) {
  const GpuModel* model = GpuCatalog::builtin().find(gpu_id);
  if (model == nullptr) throw InputError("<validate>", "", "unknown catalog GPU " + quote(gpu_id));
  static const CalibrationSet calibration;
  NodePoolSpec pool;
  pool.gpu = gpu_id;
  pool.sharing = sharing;
  auto out = std::make_shared<PolicyUnderTest>();
  out->policy = make_sharing_factory("<validate>", calibration, measured)(pool, *model, out->names);
  return out;
}

std::vector<double> policy_rates(const GpuSharing& policy, std::vector<Resident>& residents) {
  policy.compute_rates(residents);
  std::vector<double> rates(residents.size());
  for (std::size_t i = 0; i < residents.size(); ++i) rates[i] = residents[i].rate;
  return rates;
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  if (values.empty()) return 0;
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace sharesim
