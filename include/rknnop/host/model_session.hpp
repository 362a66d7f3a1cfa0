// SPDX-License-Identifier: MIT
#pragma once

// Moved: the `.rknn` file's words are "rknn", the reflected op's are "model" (CHANGELOG.md). This
// forwarding header keeps old includes working.
#include <rknnop/host/rknn_session.hpp>
