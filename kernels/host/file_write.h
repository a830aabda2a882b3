// Writing sharesim-calibrate's output files (raw measurements, profiles) so that no half-written
// file is ever left under the final name.
#pragma once

#include <string>

namespace sharesim::calib {

// Writes `text` to `path + ".tmp<pid>"` and renames it into place. Throws CalibError naming
// `path` when its directory does not exist, the write fails or the rename fails (the temporary
// file is then removed).
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace sharesim::calib
