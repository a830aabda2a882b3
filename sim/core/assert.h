#pragma once
// SHARESIM_ASSERT(condition, message): an invariant of the model (units never negative, the
// residents of a GPU matching its placements, time never going back). A failure is a bug in
// sharesim, never bad input (input errors are InputError), so it prints where and what, and
// aborts: no caller could recover, and a core dump keeps the state that broke it.
//
// Checked in the dev (Debug) build and under the sanitizers (SHARESIM_SANITIZE defines
// SHARESIM_ENABLE_ASSERTS), where every test runs; compiled out under NDEBUG otherwise (the
// release preset), because several sit on the runtime's per-event path (every progress update,
// every rate change) that the benchmarks time. Compiled out, the condition is still parsed and
// type-checked but never evaluated, so it cannot go stale or have side effects that matter.
namespace sharesim::detail {
[[noreturn]] void assertion_failed(const char* condition, const char* message, const char* file, int line) noexcept;
}  // namespace sharesim::detail

#if !defined(NDEBUG) || defined(SHARESIM_ENABLE_ASSERTS)
#define SHARESIM_ASSERTS_ENABLED 1
#define SHARESIM_ASSERT(condition, message)                                                     \
  (static_cast<bool>(condition) ? static_cast<void>(0)                                           \
                                : ::sharesim::detail::assertion_failed(#condition, message, __FILE__, __LINE__))
#else
#define SHARESIM_ASSERTS_ENABLED 0
#define SHARESIM_ASSERT(condition, message) static_cast<void>(sizeof(static_cast<bool>(condition)))
#endif
