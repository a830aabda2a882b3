#include "sim/runtime/restart_backoff.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace sharesim {
namespace {

TEST(RestartBackoff, DoublesFromTheFirstDelayUpToTheCap) {
  RestartSpec restart;  // 10 s, doubled, at most 360 s
  EXPECT_EQ(restart_backoff(restart, 1), 10 * kSecond);
  EXPECT_EQ(restart_backoff(restart, 2), 20 * kSecond);
  EXPECT_EQ(restart_backoff(restart, 6), 320 * kSecond);
  EXPECT_EQ(restart_backoff(restart, 7), 360 * kSecond);
  EXPECT_EQ(restart_backoff(restart, 60000), 360 * kSecond);
  restart.backoff = kTimeNever / 2 + 1;  // doubling would overflow: it stops at the cap
  restart.max_backoff = kTimeNever - 1;
  EXPECT_EQ(restart_backoff(restart, 3), kTimeNever - 1);
}

TEST(RestartBackoff, AZeroFirstDelayIsZeroForEveryRestartNumber) {
  // A backoff of 0 doubles to 0: every restart comes back at once, however many came before
  // (a job that always OOMs with max_restarts 65535 asks for restart numbers up to 65535).
  RestartSpec restart;
  restart.backoff = 0;
  for (const std::uint32_t number : {1u, 2u, 64u, 65535u, 1u << 20, std::numeric_limits<std::uint32_t>::max()}) {
    EXPECT_EQ(restart_backoff(restart, number), 0) << number;
  }
  restart.max_backoff = 0;  // a cap of 0 too
  EXPECT_EQ(restart_backoff(restart, std::numeric_limits<std::uint32_t>::max()), 0);
  // Nonzero delays reach the cap whatever the restart number, and 1 ns doubles as any other.
  restart = RestartSpec{};
  EXPECT_EQ(restart_backoff(restart, std::numeric_limits<std::uint32_t>::max()), 360 * kSecond);
  restart.backoff = 1;
  EXPECT_EQ(restart_backoff(restart, 11), 1024);
  EXPECT_EQ(restart_backoff(restart, 65535), 360 * kSecond);
}

TEST(RestartBackoff, RestartsUntilTheLimitAndKeepsWholeCheckpoints) {
  RestartSpec restart;
  EXPECT_FALSE(restarts_after_kill(restart, 0));  // Never by default
  restart.on_failure = true;
  restart.max_restarts = 2;
  EXPECT_TRUE(restarts_after_kill(restart, 1));
  EXPECT_FALSE(restarts_after_kill(restart, 2));
  EXPECT_EQ(checkpointed_work(restart, 25.0), 0.0);
  restart.checkpoint_interval = 10;
  EXPECT_EQ(checkpointed_work(restart, 25.0), 20.0);
  EXPECT_EQ(checkpointed_work(restart, 9.5), 0.0);
}

}  // namespace
}  // namespace sharesim
