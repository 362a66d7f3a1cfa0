// SPDX-License-Identifier: MIT
// librknnrt's attribute reader, as the node runner provides it to the RKNPU2 plugins it runs
// (rknnop/host/rknpu2_run.hpp): exported from rknnop-node under librknnrt's name (tools/CMakeLists.txt),
// so a plugin's weak reference binds to it when the runner loads the plugin.
#include <rknnop/host/rknpu2_run.hpp>
#include <rknnop/rknpu2_plugin.h>

extern "C" [[gnu::visibility("default")]] void rknn_custom_op_get_op_attr(rknnop_rknpu2_op_context* context,
                                                                          const char* name,
                                                                          rknnop_rknpu2_op_attr* attr) {
  rknnop::host::rknpu2_runner_get_op_attr(context, name, attr);
}
