// Errors of sharesim-calibrate's host side: every bad input (raw measurement file, profile,
// command line) becomes one CalibError whose message names the file, the JSON pointer, what was
// expected and what was found. The driver prints it on one line and exits with code 2.
// It is the project's InputError ("FILE: POINTER: MESSAGE", an empty pointer left out), so the
// sharesim front end reports a bad raw file (profiles validate) like any other bad input.
#pragma once

#include <string>

#include "sim/input/input_error.h"

namespace sharesim::calib {

class CalibError : public InputError {
 public:
  CalibError(const std::string& file, const std::string& pointer, const std::string& message)
      : InputError(file, pointer, message) {}
};

}  // namespace sharesim::calib
