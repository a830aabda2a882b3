#pragma once
// The message of the InputError a call throws: what tests of bad input compare.
#include <string>

#include "sim/input/input_error.h"

namespace sharesim::testing {

// The message of the InputError thrown by `f`, or "" when none is thrown.
template <typename F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace sharesim::testing
