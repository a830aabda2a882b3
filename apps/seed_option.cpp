#include "apps/seed_option.h"

#include <charconv>
#include <limits>

#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {

std::int64_t parse_seed_option(const std::string& text) {
  std::int64_t seed = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (error != std::errc{} || end != text.data() + text.size() || seed < 0) {
    const std::string largest = std::to_string(std::numeric_limits<std::int64_t>::max());
    throw InputError("--seed", "", "expected an integer from 0 to " + largest + ", found " + quote(text));
  }
  return seed;
}

std::string empty_output_problem(const std::string& value) {
  return value.empty() ? "expected an output directory, found an empty name" : "";
}

}  // namespace sharesim
