// SPDX-License-Identifier: MIT
// Small helpers shared by the runtime tests (C API only).
#pragma once

#include <rknnop/host/openvx_host.h>
#include <rknnop/openvx.h>

#include <gtest/gtest.h>

#include <string>

namespace rknnop_test {

template <class Handle>
vx_reference ref(Handle h) {
  return reinterpret_cast<vx_reference>(h);
}

// The last log entry about `r` ("" if none).
inline std::string last_log(vx_reference r, vx_status* status = nullptr) {
  char text[512] = {};
  vx_status s = 0;
  if (rknnopHostGetLastLogEntry(r, &s, text, sizeof text) != VX_SUCCESS) return {};
  if (status != nullptr) *status = s;
  return text;
}

// Each test gets its own context, released (with everything left in it) at the end.
class context_test : public ::testing::Test {
protected:
  void SetUp() override {
    ctx = vxCreateContext();
    ASSERT_EQ(vxGetStatus(ref(ctx)), VX_SUCCESS);
  }
  void TearDown() override {
    if (ctx != nullptr) {
      EXPECT_EQ(vxReleaseContext(&ctx), VX_SUCCESS);
    }
  }
  vx_context ctx = nullptr;
};

}  // namespace rknnop_test
