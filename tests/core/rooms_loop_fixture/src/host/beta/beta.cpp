// SPDX-License-Identifier: MIT
// Fixture of core.rooms.fixture.loop: beta uses alpha's private header...
#include "rknnop/host/beta.hpp"

#include "alpha/helper.hpp"

int beta() { return alpha_helper(); }
