#include "kernels/host/file_write.h"

#include <filesystem>

#include "kernels/host/calib_error.h"
#include "sim/metrics/output_set.h"
#include "sim/input/input_error.h"

namespace sharesim::calib {

void write_file_atomically(const std::string& path, const std::string& text) {
  // The project's one atomic writer (sim/metrics/output_set.h), its error in calibrate's words.
  try {
    sharesim::write_file_atomically(path, std::string_view(text));
  } catch (const InputError& e) {
    throw CalibError(path, "", e.problem());
  }
}

}  // namespace sharesim::calib
