#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares the conformance drivers' results (results/<backend>.tsv, one line per row of cases.hpp)
and writes docs/backends.md.

  conformance.py row RESULTS_DIR ROW            one row's cells; exit 1 when one is FAIL
  conformance.py table RESULTS_DIR [--write F | --check F] [--rows R1,R2,...]
                                                 the table; --check: F must equal it (exit 1 if not;
                                                 "skipped:" when a backend did not run); --rows: every
                                                 row the drivers ran must be among these (its ctests)

A cell is "equal" (the output bits equal the row's first backend that ran it), "refused alike" (the
message body after the backend's prefix "rknnop: <Op>[ (<type>)]: " equals the first refusal's), "n/a"
with a reason from EXPLANATIONS (a case the backend cannot express; a driver may add a note after the key
and "; "), "skipped" (the backend's stack was not given, or the backend that records a row's inputs was
skipped) or FAIL: anything else, including a bad case accepted or a good one refused.
"""
import os
import re
import sys

# Columns, in order: the backend's results name and its title.
BACKENDS = [
    ("openvx", "RKNN v1, host runtime"),
    ("openvx_board", "RKNN v1, Rockchip's libOpenVX (qemu, aarch64)"),
    ("rknpu2", "RKNPU2 plugin, x86-64"),
    ("librknnrt", "RKNPU2 plugin in librknnrt 1.6.0, qemu-arm"),
    ("toolkit2", "RKNPU2 toolkit2 class, compute()"),
    ("toolkit2_shape_infer", "RKNPU2 toolkit2 class, shape_infer()"),
    ("mindspore", "MindSpore Lite"),
]

# The one table of explanations: why a backend cannot express a row. A driver printing another key fails.
EXPLANATIONS = {
    "board-converts": "A board's library converts an output without checking what the conversion loses "
    "(its size budget; docs/architecture.md §1, the invocation core's rules): only a checking build (the PC's) "
    "refuses a lossy output.",
    "v1-positional": "RKNN v1 has no named attributes: a node's parameters are positional and a model always holds "
    "every one (a param the user leaves out is written with op.yml's default), so a node cannot lack a param.",
    "v1-typed-scalar": "An RKNN v1 param is a scalar of the param's own VX type (INT8 for an int8 param): a value "
    "that type cannot hold cannot be written into the node.",
    "v1-no-zero-dim": "An OpenVX tensor has no zero dim: vxCreateTensor refuses one (docs/runtime.md §6), so no "
    "such tensor reaches a v1 kernel.",
    "board-zero-dim-tensor": "Rockchip's libOpenVX creates a tensor with a zero dim (vxCreateTensor succeeds) but "
    "hands the kernel a reference its vxQueryTensor refuses (-12, VX_ERROR_INVALID_REFERENCE): the node is "
    "refused before any kernel can read the dims.",
    "board-float-scalar": "A board's library takes a float scalar as it comes (its size budget; docs/architecture.md "
    "§1, the invocation core's rules): only a checking build (the PC's) refuses a nan or infinite one with the other backends' line; an op's own "
    "kernel may still refuse it at run time, in its own words.",
    "board-marker-check": "A board's library looks for unwritten output elements at its few markers only (its size "
    "budget; docs/architecture.md §5), so it refuses an output left wholly unwritten with a shorter line than a "
    "checking build's, which counts the unwritten elements.",
    "toolkit2-shapes-only": "The toolkit2 class's shape_infer (rknnop_rknpu2_infer) gives shapes and dtypes, no "
    "output values: rows of ops are compute()'s column.",
    "toolkit2-no-model-shapes": "shape_infer is handed the inputs only: there is no model output shape for its "
    "answer to disagree with (compute()'s column has the case).",
    "toolkit2-no-kernel": "The bad case is found by running the kernel, which shape_infer does not run "
    "(compute()'s column has the case).",
    "mindspore-typed-attr": "A MindSpore Lite attr holds the bytes of the param's own type (1 byte for an int8 "
    "param): a value outside it cannot be written into the node.",
    "rknpu2-float-tensors": "librknnrt hands a CPU custom op float32 or float16 tensors only (docs/rknpu2.md §1, §2): "
    "integer tensors cannot reach the plugin.",
    "librknnrt-one-model": "Inside librknnrt an op runs only in a model, and the PC has one with a custom op: "
    "Rockchip's dual_residual_custom.rknn (another needs RKNN-Toolkit2). Its cstDualResidual node takes what the emulated NPU "
    "layers wrote and alpha 0.5, not a row's inputs or params: row `DualResidual.in_librknnrt` has those recorded "
    "inputs (`rknpu2.attribute_error.*` show two param rules inside librknnrt with other ops and messages).",
}

# A row "<Op>.in_<backend>" takes the inputs that backend's run recorded (cases.hpp: recorded_row): a driver
# prints "skipped" for it when they are missing, which is a FAIL unless that backend was skipped.
RECORDED = re.compile(r"^[A-Za-z0-9_]+\.in_([A-Za-z0-9_]+)$")

PREFIX = re.compile(r"^rknnop: [A-Za-z0-9_]+(?: \([^)]*\))?: (.*)$")


def body(line):
    m = PREFIX.match(line)
    return m.group(1) if m else None


def load(results):
    """{backend: {row: (kind, detail)}} for the backends that ran; {backend: reason} for the skipped."""
    ran, skipped = {}, {}
    for name, _ in BACKENDS:
        skip = os.path.join(results, name + ".skip")
        tsv = os.path.join(results, name + ".tsv")
        if os.path.exists(skip):
            with open(skip, encoding="utf-8") as f:
                skipped[name] = f.read().strip()
            continue
        cells = {}  # no results without a skip: every row of this backend FAILs ("printed no line")
        if os.path.exists(tsv):
            with open(tsv, encoding="utf-8") as f:
                for line in f:
                    parts = line.rstrip("\n").split("\t", 2)
                    if len(parts) == 3:
                        cells[parts[0]] = (parts[1], parts[2])
        ran[name] = cells
    return ran, skipped


def row_names(ran):
    names = []
    for cells in ran.values():
        for n in cells:
            if n not in names:
                names.append(n)
    return names


def judge(row, ran, skipped):
    """[(backend, verdict, detail)]: verdict one of equal, refused alike, n/a, skipped, FAIL."""
    expect_refused = row.startswith("rule.")
    out = []
    reference = None  # (kind, value) of the first backend that ran the row
    for name, _ in BACKENDS:
        if name in skipped:
            out.append((name, "skipped", skipped[name]))
            continue
        kind, detail = ran[name].get(row, ("missing", "the driver printed no line for this row"))
        if kind == "skipped":
            recorded = RECORDED.match(row)
            if recorded and recorded.group(1) in skipped:
                out.append((name, "skipped", detail))
            else:
                out.append((name, "FAIL", "skipped although the inputs' backend ran: " + detail))
            continue
        if kind == "n/a":
            key = detail.split("; ", 1)[0]  # the key, then the driver's note (what the library logged)
            if key in EXPLANATIONS:
                out.append((name, "n/a", key))
            else:
                out.append((name, "FAIL", "n/a with no explanation: " + detail))
            continue
        if kind == "ok" and expect_refused:
            out.append((name, "FAIL", "accepted the bad case (outputs " + detail + ")"))
            continue
        if kind == "refused" and not expect_refused:
            out.append((name, "FAIL", "refused: " + detail))
            continue
        if kind not in ("ok", "refused"):
            out.append((name, "FAIL", detail))
            continue
        value = detail if kind == "ok" else body(detail)
        if value is None:
            out.append((name, "FAIL", "refused without an rknnop line: " + detail))
            continue
        if reference is None:
            reference = (name, value)
        if value == reference[1]:
            out.append((name, "equal" if kind == "ok" else "refused alike", value))
        elif kind == "ok":
            out.append((name, "FAIL", "outputs %s, %s's are %s" % (value, reference[0], reference[1])))
        else:
            out.append((name, "FAIL", "refused with a different message: " + detail))
    return out


def cmd_row(results, row):
    ran, skipped = load(results)
    failed = False
    for name, verdict, detail in judge(row, ran, skipped):
        print("%-22s %-14s %s" % (name, verdict, detail))
        failed |= verdict == "FAIL"
    if skipped:
        print("(skipped backends: %s)" % ", ".join(sorted(skipped)))
    return 1 if failed else 0


def table(results):
    ran, skipped = load(results)
    rows = row_names(ran)
    lines = [
        "<!-- SPDX-License-Identifier: MIT -->",
        "<!-- Generated by scripts/conformance.sh (tests/conformance/conformance.py) from a run of the suite; "
        "do not edit. -->",
        "# Backends side by side",
        "",
        "The conformance suite (tests/conformance, ctest label `conformance`) runs every example op and the suite's "
        "test ops on each backend: the same inputs must give the same output bits (rows of ops), and the same bad "
        "cases must be refused with the same message after the backend's prefix (rows `rule.*`). A cell is *equal*, "
        "*refused alike*, *n/a* (the backend cannot express the case; the reason is in the table of explanations), "
        "*skipped* (that backend's stack was not given to the run) or **FAIL**. Cells are compared with the row's "
        "first answer in column order, so in a row that fails, FAIL marks the backends that differ from that answer "
        "(or accepted a bad case, or refused a good one): which side is right is the rule still to be decided.",
        "",
        "The column *RKNN v1, Rockchip's libOpenVX* runs each node in Rockchip's libOpenVX.so.1.2 as librknn_runtime "
        "registers and feeds it (a bool param as a 1-byte UINT8 scalar, INT32 arrays, outputs of the model's shapes; "
        "[board-emulation.md §8](board-emulation.md)). That libOpenVX reports success after a failed CPU kernel "
        "([board-emulation.md §8](board-emulation.md) item 7): its cells quote the node's line after the key or digest.",
        "",
        "## 1. The table",
        "",
        "| row | " + " | ".join(title for _, title in BACKENDS) + " | outputs / message body |",
        "|---|" + "---|" * len(BACKENDS) + "---|",
    ]
    counts = {"equal": 0, "refused alike": 0, "n/a": 0, "skipped": 0, "FAIL": 0}
    failures = []
    for row in rows:
        cells = judge(row, ran, skipped)
        shown = []
        reference = ""
        for name, verdict, detail in cells:
            counts[verdict] += 1
            if verdict == "n/a":
                shown.append("n/a (%s)" % detail)
            elif verdict == "FAIL":
                shown.append("**FAIL**")
                failures.append((row, name, detail))
            else:
                shown.append(verdict)
            if verdict in ("equal", "refused alike") and not reference:
                reference = ("`%s`" % detail) if verdict == "equal" else detail.replace("|", "\\|")
        lines.append("| `%s` | %s | %s |" % (row, " | ".join(shown), reference))
    total = sum(counts.values())
    lines += [
        "",
        "Cells: %d run; %d equal, %d refused alike, %d n/a, %d skipped, %d FAIL." % (
            total - counts["skipped"], counts["equal"], counts["refused alike"], counts["n/a"], counts["skipped"],
            counts["FAIL"]),
        "",
        "## 2. Explanations",
        "",
        "| key | why the backend cannot express the case |",
        "|---|---|",
    ]
    for key, why in EXPLANATIONS.items():
        lines.append("| %s | %s |" % (key, why))
    lines += [
        "",
        "## 3. Not in this table",
        "",
        "- RKNN v1 through librknn_runtime itself (`rknn_init`/`rknn_run` on a model) under qemu: a model's own "
        "rules are the board matrix ([board-rules.md](board-rules.md)), and the examples' `board.*` tests compare it "
        "with the host runtime, bit for bit.",
        "- The RKNPU2 plugin inside librknnrt 1.6.0 under qemu, beyond row `DualResidual.in_librknnrt`: only "
        "Rockchip's DualResidual model exists; `rknpu2.dual_residual.*` compare it with Rockchip's kernel and the "
        "host runtime for each SoC's model, bit for bit.",
        "",
        "## 4. Failing cells",
        "",
    ]
    if not failures:
        lines.append("None.")
    for row, name, detail in failures:
        lines.append("- `%s` on %s: %s" % (row, dict(BACKENDS)[name], detail.replace("|", "\\|")))
    if skipped:
        lines += ["", "## 5. Skipped backends", ""]
        for name in sorted(skipped):
            lines.append("- %s: %s" % (dict(BACKENDS)[name], skipped[name]))
    return "\n".join(lines) + "\n", skipped


def cmd_table(results, args):
    if "--rows" in args:  # the rows CMake made tests of: every row a driver ran must be one
        at = args.index("--rows")
        tested = set(args[at + 1].split(","))
        args = args[:at] + args[at + 2:]
        ran, _ = load(results)
        untested = [r for r in row_names(ran) if r not in tested]
        if untested:
            print("conformance: rows without a ctest (tests/conformance/CMakeLists.txt reads them from cases.hpp): "
                  + ", ".join(untested))
            return 1
    text, skipped = table(results)
    if args and args[0] == "--write":
        with open(args[1], "w", encoding="utf-8") as f:
            f.write(text)
        return 0
    if args and args[0] == "--check":
        if skipped:
            print("skipped: docs/backends.md comes from a run with every backend; not run here: "
                  + ", ".join(sorted(skipped)))
            return 0
        with open(args[1], encoding="utf-8") as f:
            if f.read() == text:
                print("docs/backends.md is what this run produces")
                return 0
        print("conformance: %s differs from this run's table; regenerate it with scripts/conformance.sh. "
              "This run's table:\n%s" % (args[1], text))
        return 1
    sys.stdout.write(text)
    return 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "row":
        return cmd_row(argv[1], argv[2])
    if len(argv) >= 2 and argv[0] == "table":
        return cmd_table(argv[1], argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
