// Errors of sharesim-calibrate's host side: every bad input (raw measurement file, profile,
// command line) becomes one CalibError whose message names the file, the JSON pointer, what was
// expected and what was found. The driver prints it on one line and exits with code 2.
#pragma once

#include <stdexcept>
#include <string>

namespace sharesim::calib {

class CalibError : public std::runtime_error {
 public:
  // "FILE: POINTER: MESSAGE"; an empty pointer is left out.
  CalibError(const std::string& file, const std::string& pointer, const std::string& message)
      : std::runtime_error(compose(file, pointer, message)) {}

 private:
  static std::string compose(const std::string& file, const std::string& pointer, const std::string& message) {
    std::string text = file;
    if (!pointer.empty()) text += ": " + pointer;
    return text + ": " + message;
  }
};

}  // namespace sharesim::calib
