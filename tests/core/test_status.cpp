// SPDX-License-Identifier: MIT
// rknnop::status and rknnop::error: messages, truncation, formatting of every argument kind.
#include <rknnop/status.hpp>
#include <rknnop/float16.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(Status, OkAndError) {
  EXPECT_TRUE(rknnop::ok.ok());
  const rknnop::status e = rknnop::error("size[{}] must be > 0, got {}", 1, -3);
  EXPECT_FALSE(e.ok());
  EXPECT_STREQ(e.message(), "size[1] must be > 0, got -3");
}

TEST(Status, FormatsEveryKind) {
  const rknnop::status e =
      rknnop::error("{} {} {} {} {} {} {}", true, 'c', 2.5, std::string_view("sv"), "cstr",
                    static_cast<unsigned long long>(18446744073709551615ull), rknnop::float16(0.5f));
  EXPECT_STREQ(e.message(), "true c 2.5 sv cstr 18446744073709551615 0.5");
}

TEST(Status, ExtraArgumentsAreIgnoredMissingOnesLeaveTheHole) {
  EXPECT_STREQ(rknnop::error("a {} b", 1, 2).message(), "a 1 b");
  EXPECT_STREQ(rknnop::error("a {} b {}", 1).message(), "a 1 b {}");
}

TEST(Status, LongMessagesAreTruncatedNotOverflowed) {
  const std::string big(1000, 'x');
  const rknnop::status e = rknnop::error("{}", std::string_view(big));
  EXPECT_EQ(std::string(e.message()).size(), rknnop::status::capacity - 1);
}

TEST(Status, SinkIsReplaceable) {
  static std::string seen;
  rknnop::set_log_sink([](const char* line, void*) noexcept { seen = line; });
  rknnop::detail::log_config().sink("hello", nullptr);
  EXPECT_EQ(seen, "hello");
  rknnop::set_log_sink(&rknnop::detail::stderr_sink);
}

}  // namespace
