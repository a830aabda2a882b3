#include "sim/runtime/restart_backoff.h"

#include <gtest/gtest.h>

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
