#pragma once
// Writes a large table (jobs.csv: a row per job, a million or more) in blocks of rows, formatting
// blocks on several threads while the finished ones are written, in order. Each block's text
// depends on its rows alone, so the file is the same byte for byte whatever the thread count.
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>

namespace sharesim {

// Appends rows [begin, end) of the table to `text`. Called from several threads at once when
// threads > 1: it may only read shared state.
using FormatRows = std::function<void(std::size_t begin, std::size_t end, std::string& text)>;

// Rows per block: about 1 MiB of jobs.csv, so that the texts in flight (two blocks per thread)
// stay at most 16 MiB, and few enough blocks (122 for a million rows) that handing each to a
// thread costs little beside formatting it.
inline constexpr std::size_t kRowsPerBlock = 8192;

// At most this many blocks are formatted at once, however many threads are asked for: the
// calling thread writes every block alone, and on the development VM writing a 1 MiB block
// took about 0.7 ms (writev, 5% of a 1.7 s M/M/8 run writing 130 MB) against 3-5 ms to format
// and write one on one thread (jobs.csv's 122 blocks in 0.40-0.66 s), so five to eight
// formatting threads keep the writer busy; more would only hold more texts (two of about
// 1 MiB per thread).
inline constexpr unsigned kMaxFormatThreads = 8;

// Writes rows [0, rows) to `out` in order. With threads <= 1 everything runs on the calling
// thread; otherwise min(threads, kMaxFormatThreads) threads format blocks, each taking the next
// block as soon as it has finished one (up to two blocks per thread ahead of the writer), while
// the calling thread writes the finished blocks in order. An exception thrown by `format` or by
// a write reaches the caller, once every formatting thread has stopped.
void write_rows_in_order(std::ostream& out, std::size_t rows, unsigned threads, const FormatRows& format);

}  // namespace sharesim
