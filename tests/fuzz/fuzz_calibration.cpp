// Fuzz harness: the calibration-profile loader (policies/calibration).
#include "policies/calibration/calibration_profile.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sharesim;
  fuzz::refuse_or_accept([&] { parse_calibration_profile(fuzz::input_text(data, size), "fuzz.json"); });
  return 0;
}
