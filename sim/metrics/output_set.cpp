#include "sim/metrics/output_set.h"

#include <fcntl.h>
#include <stdio.h>  // renameat2 (glibc 2.28+)
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "sim/input/input_error.h"

namespace sharesim {
namespace fs = std::filesystem;
namespace {

std::string errno_text() { return std::strerror(errno); }

// Streams into `temp` and closes it; throws InputError(path) on any failure after removing it.
void write_stream(const fs::path& temp, const std::string& path, const StreamWriter& write) {
  std::ofstream out(temp, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError(path, "", "cannot write: " + errno_text());
  try {
    write(out);
    out.close();
  } catch (...) {
    std::error_code ec;
    fs::remove(temp, ec);
    throw;
  }
  if (!out) {
    const std::string reason = errno_text();  // ENOSPC, EFBIG, EIO: what the last write saw
    std::error_code ec;
    fs::remove(temp, ec);
    throw InputError(path, "", "write failed (" + reason + "); the previous file, if any, is unchanged");
  }
}

// "<parent>/.<leaf><suffix>": hidden siblings of the target.
fs::path sibling(const fs::path& target, const std::string& suffix) {
  return target.parent_path() / ("." + target.filename().string() + suffix);
}

}  // namespace

void write_file_atomically(const std::string& path, const StreamWriter& write) {
  const fs::path target(path);
  const fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  if (!fs::is_directory(parent))
    throw InputError(path, "", "cannot write: directory " + parent.string() + " does not exist");
  if (fs::is_directory(target)) throw InputError(path, "", "cannot write: it is a directory, not a file");
  // Host name and process id keep concurrent writers of one file (sweep shards on several hosts
  // sharing a folder) off each other's temporary file.
  char host[256] = "host";
  gethostname(host, sizeof host - 1);
  const fs::path temp =
      sibling(parent / target.filename(), ".tmp." + std::string(host) + "." + std::to_string(getpid()));
  write_stream(temp, path, write);
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) {
    const std::string reason = ec.message();  // before remove() reuses ec
    fs::remove(temp, ec);
    throw InputError(path, "", "cannot move the finished file into place: " + reason);
  }
}

void write_file_atomically(const std::string& path, std::string_view content) {
  write_file_atomically(path, [content](std::ostream& out) { out.write(content.data(), std::ssize(content)); });
}

void write_file_making_dirs(const std::string& option, const std::string& path, const StreamWriter& write) {
  if (path.empty()) throw InputError(option, "", "expected a file path, found an empty one");
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) {
    std::error_code ec;
    fs::create_directories(parent, ec);
    if (ec) throw InputError(path, "", "cannot create its directory " + parent.string() + ": " + ec.message());
  }
  write_file_atomically(path, write);
}

void write_file_making_dirs(const std::string& option, const std::string& path, std::string_view content) {
  write_file_making_dirs(option, path, [content](std::ostream& out) { out.write(content.data(), std::ssize(content)); });
}

OutputSet::OutputSet(std::string dir) : dir_(std::move(dir)) {
  if (dir_.empty()) throw InputError("-o", "", "expected an output directory, found an empty name");
  fs::path target = fs::path(dir_).lexically_normal();
  // "." and ".." are named by their absolute path ("." -> "/home/u/w/"), before a trailing
  // separator goes: the lock and staging siblings sit beside the directory, not in it.
  if (target.filename() == "." || target.filename() == "..") target = fs::absolute(target).lexically_normal();
  if (target.filename().empty()) target = target.parent_path();  // "out/" -> "out"
  const fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) throw InputError(dir_, "", "cannot create output directory: " + ec.message());
  const fs::path lock = sibling(target, ".lock");
  lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) throw InputError(dir_, "", "cannot create the lock file " + lock.string() + ": " + errno_text());
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw InputError(dir_, "",
                     "another sharesim process is writing this output directory (it holds " + lock.string() +
                         "); wait for it or choose another directory");
  }
  // A staging directory left by a killed process: ours now that we hold the lock.
  staging_ = sibling(target, ".partial").string();
  fs::remove_all(staging_, ec);
  fs::create_directory(staging_, ec);
  if (ec) {
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw InputError(dir_, "", "cannot create the staging directory " + staging_ + ": " + ec.message());
  }
  write(std::string(kMarker), "sharesim output set: written whole by one run (docs/reliability.md)\n");
  dir_ = target.string();
}

OutputSet::~OutputSet() {
  std::error_code ec;
  if (!committed_) fs::remove_all(staging_, ec);
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the lock
}

void OutputSet::write(const std::string& name, const StreamWriter& write) {
  const fs::path file = fs::path(staging_) / name;
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) throw InputError((fs::path(dir_) / name).string(), "", "cannot create directory: " + ec.message());
  write_stream(file, (fs::path(dir_) / name).string(), write);
}

void OutputSet::write(const std::string& name, std::string_view content) {
  write(name, [content](std::ostream& out) { out.write(content.data(), std::ssize(content)); });
}

void OutputSet::commit() {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(dir_, ec);
  if (!fs::exists(status)) {
    if (::rename(staging_.c_str(), dir_.c_str()) != 0)
      throw InputError(dir_, "", "cannot move the outputs into place: " + errno_text());
    committed_ = true;
    return;
  }
  if (!fs::is_directory(status)) throw InputError(dir_, "", "expected an output directory, found a file");
  if (!fs::is_empty(dir_, ec) && !fs::exists(fs::path(dir_) / kMarker)) {
    throw InputError(dir_, "",
                     "expected an empty directory or one sharesim wrote (with " + std::string(kMarker) +
                         "), found other files: choose another output directory (the whole set is replaced)");
  }
  // One atomic step: the old set moves to the staging name, the new one to dir_.
  if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) != 0)
    throw InputError(dir_, "", "cannot swap the new outputs into place: " + errno_text());
  committed_ = true;
  fs::remove_all(staging_, ec);  // the previous set; a leftover is removed by the next writer
}

}  // namespace sharesim
