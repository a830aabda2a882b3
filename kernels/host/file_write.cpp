#include "kernels/host/file_write.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "kernels/host/calib_error.h"

namespace sharesim::calib {

void write_file_atomically(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty() && !fs::is_directory(parent)) {
    throw CalibError(path, "", "cannot write the file: directory " + parent.string() + " does not exist");
  }
  // The process id keeps concurrent writers (forked probe processes) off each other's temp file.
  const std::string temp = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw CalibError(path, "", "cannot write the file");
    out << text;
    if (!out.flush()) throw CalibError(path, "", "write failed");
  }
  std::error_code error;
  fs::rename(temp, path, error);
  if (error) {
    fs::remove(temp, error);
    throw CalibError(path, "", "cannot move the finished file into place: " + error.message());
  }
}

}  // namespace sharesim::calib
