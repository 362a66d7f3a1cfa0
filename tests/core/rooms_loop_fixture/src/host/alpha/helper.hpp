// SPDX-License-Identifier: MIT
#pragma once
// Fixture of core.rooms.fixture.loop: a private header of alpha.
inline int alpha_helper() { return 1; }
