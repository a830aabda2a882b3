#pragma once
// Kill-safe writing of output files (docs/reliability.md "Outputs"). Two pieces:
//
//  - write_file_atomically: one file, streamed to a temporary sibling and renamed over the final
//    name, so a reader sees the old file or the new one, never half of one.
//  - OutputSet: a directory of files that belong together (a run's summary.json beside its
//    jobs.csv). Every file is streamed into a staging directory next to the target; commit()
//    swaps the staging directory with the target in one rename (renameat2 RENAME_EXCHANGE), so
//    a process killed at any moment leaves the previous complete set or the new complete set.
//    A lock file next to the target keeps two processes from writing the same set at once: the
//    second one fails with an InputError instead of interleaving files.
//
// A failed write (a full disk, ENOSPC) is an InputError naming the file; the staging directory
// is removed and the previous set is left as it was.
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace sharesim {

using StreamWriter = std::function<void(std::ostream&)>;

// Throws InputError(path, "", ...) when the directory is missing or the write or rename fails;
// the temporary file is removed then.
void write_file_atomically(const std::string& path, const StreamWriter& write);
void write_file_atomically(const std::string& path, std::string_view content);

// The same for a file the user named with `option` ("-o", "--junit", "--markdown", for
// errors): its missing directories are made first (as `run -o` makes its directory and pytest's
// --junitxml its file's), and an empty path is an InputError. `sharesim generate`, `check`,
// `trace node-pools` and `sharesim-calibrate compare` write their files through it.
void write_file_making_dirs(const std::string& option, const std::string& path, const StreamWriter& write);
void write_file_making_dirs(const std::string& option, const std::string& path, std::string_view content);

class OutputSet {
 public:
  // The name of the marker file every set holds: commit() replaces an existing directory only
  // when it is empty or holds this marker (it was written by sharesim), never a directory of
  // someone else's files.
  static constexpr std::string_view kMarker = ".sharesim-output";

  // Takes the lock and creates a fresh staging directory. Throws InputError(dir) when another
  // process holds the lock or the directories cannot be made.
  explicit OutputSet(std::string dir);
  // Not committed (an exception on the way): removes the staging directory, keeps the old set.
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  const std::string& dir() const { return dir_; }
  // Where the files are being written before commit (for tools that write files themselves).
  const std::string& staging_dir() const { return staging_; }

  // Writes `name` (a relative path; '/' makes subdirectories) into the staging directory.
  void write(const std::string& name, const StreamWriter& write);
  void write(const std::string& name, std::string_view content);

  // Makes the staged files the set at dir(), replacing the previous set in one step.
  void commit();

 private:
  std::string dir_;
  std::string staging_;
  int lock_fd_ = -1;
  bool committed_ = false;
};

}  // namespace sharesim
