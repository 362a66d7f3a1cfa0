// SPDX-License-Identifier: MIT
#pragma once
// Fixture of core.rooms.fixture.loop: beta's public header, implemented in src/host/beta/beta.cpp.
int beta();
