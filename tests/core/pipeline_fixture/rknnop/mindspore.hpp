// SPDX-License-Identifier: MIT
#pragma once
// A fixture of tests/core/check_one_pipeline.cmake: a backend with a per-call pipeline of its own.
template <class Op, class In, class Out, class Par>
bool run(const In& in, Out& out, const Par& par) {
  bool ok = true;
  if (ok) ok = Op::cpu(in, out, par);
  return ok;
}
