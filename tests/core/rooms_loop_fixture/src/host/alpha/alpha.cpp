// SPDX-License-Identifier: MIT
// Fixture of core.rooms.fixture.loop: ...while alpha uses beta through beta's public header: a loop.
#include "alpha/helper.hpp"
#include "rknnop/host/beta.hpp"

int alpha() { return beta() + alpha_helper(); }
