#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The conformance matrix: the board's rules learned from the board (issue 41, docs/board-rules.md).

Each cell is a model (rknnop-pack wrap around one of tests/board_abi/matrix's ops, then edited here where
wrap cannot express the cell: tensor dtypes, op_version, chains of two and three nodes), run through
rknnop-run (model mode, node by node for a chain) and through Rockchip's librknn_runtime
(scripts/board-run.sh) on the same input files. A cell's answer is `ok` with its output bytes, `refused`
with the first failure line, or `crash` (a signal). Equal: both ok with identical dtype, shape and bytes,
or both not ok. Exit status 1 when a cell's answers differ and KNOWN does not explain the difference,
77 when the board stack is absent.

  matrix.py --run RKNNOP_RUN --pack RKNNOP_PACK --op NAME=OP.rknnop... [--set ci|full] [--variant V]...
            [--table OUT.md] [--docs docs/board-rules.md] [--only CELL_ID]... [--list]

--op: each of the matrix's ops (tests/board_abi/matrix: MatrixAffine, MatrixHalf, MatrixIo23/34/42) and its container.
--docs rewrites the part of that file between its markers with the table (docs/board-rules.md is
generated so; never by hand).
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
except ImportError:
    print("matrix.py: skipped: NumPy not found for %s (CMake: RKNNOP_NUMPY_PYTHON)" % sys.executable)
    sys.exit(77)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
VARIANTS = ["linux-aarch64", "linux-armhf", "linux-armhf-puma"]
# Every tensor type the board runtime's model reader names (strings of librknn_runtime.so 1.7.5:
# VSI_NN_TYPE_*); rknnop's tensors take the first seven.
DTYPES = ["FLOAT16", "FLOAT32", "INT8", "UINT8", "INT16", "INT32", "UINT16", "UINT32", "INT64", "UINT64", "FLOAT64",
          "BOOL8", "BFLOAT16", "VDATA"]
NUMPY = {"FLOAT16": "<f2", "FLOAT32": "<f4", "FLOAT64": "<f8", "INT8": "|i1", "UINT8": "|u1", "INT16": "<i2",
         "UINT16": "<u2", "INT32": "<i4", "UINT32": "<u4", "INT64": "<i8", "UINT64": "<u8", "BOOL8": "|b1"}
# Values each input dtype gets (integers chosen to pass float16's 2048 where the type holds them).
RANGES = {"INT8": (-100, 100), "UINT8": (0, 200), "INT16": (-3000, 3000), "UINT16": (0, 5000),
          "INT32": (-5000, 5000), "UINT32": (0, 5000), "INT64": (-5000, 5000), "UINT64": (0, 5000)}

# Differences that are understood, each with its rule (keep this short and honest). A cell matches
# an entry when every key given equals the cell's and the two answers are as stated.
KNOWN = [
    {"rule": "armhf-op-version-1",
     "when": lambda c: c["op_version"] == 1 and c["variant"] != "linux-aarch64", "board": "crash", "ours": "ok",
     "why": "the armhf runtimes read op_lib_armhf only when op_version > 1, dlopen an empty file and crash "
            "(docs/board-emulation.md §4, pinned by board.rknn.Exp.<armhf>.op_version_1); rknnop-pack writes 2, "
            "and rknnop-run runs the x86-64 library, which op_version does not gate."},
    {"rule": "lossy-output-refused",
     "when": lambda c: True, "board": "ok", "ours": "refused", "ours_message": r"becomes .*rknnop-run --allow-lossy",
     "why": "rknnop's PC library refuses an output its conversion to the tensor's narrower type changes "
            "(docs/running.md §1); the board's libraries convert without a word. Deliberate: the user is told."},
    {"rule": "pass-through-0-integer-input",
     "when": lambda c: c["pass_through"] == 0 and c["in"][0] not in ("FLOAT16", "FLOAT32"), "board": "ok",
     "ours": "refused", "ours_message": r"cannot store <f4 data in a VX_TYPE_",
     "why": "with pass_through 0 the board's rknn_inputs_set converts float32 data into an integer input tensor "
            "((x - mean) / scale, then the tensor's type; wrap writes mean 0 and scale 1); rknnop-run's model mode "
            "takes an .npy of the tensor's own dtype and says so ('save the array as |i1'): that conversion is "
            "not emulated."},
]


def cell_id(c):
    parts = [c["variant"].replace("linux-", ""), c["op"], "in=" + "/".join(c["in"]), "out=" + "/".join(c["out"]),
             "shape=" + "x".join(str(d) for d in c["shape"])]
    if c["chain"] > 1:
        parts.append("chain=%d(mid=%s)" % (c["chain"], c["mid"]))
    if c["params"]:
        parts.append("params=" + ",".join("%s=%s" % kv for kv in c["params"]))
    parts.append("pt=%d wf=%d opv=%d" % (c["pass_through"], c["want_float"], c["op_version"]))
    return " ".join(parts)


def case(op="MatrixAffine", n_in=1, n_out=1, dtype="FLOAT16", in_dtype=None, out_dtype=None, shape=(2, 3, 4),
         params=(), chain=1, mid="FLOAT16", pass_through=1, want_float=0, op_version=2, rule=""):
    if op == "MatrixAffine" and not any(k == "arr" for k, _ in params):
        params = list(params) + [("arr", "0")]  # wrap writes an array's default {} as [] (a cell of its own)
    return {"op": op, "in": [in_dtype or dtype] * n_in, "out": [out_dtype or dtype] * n_out, "shape": list(shape),
            "params": list(params), "chain": chain, "mid": mid, "pass_through": pass_through,
            "want_float": want_float, "op_version": op_version, "axis": rule}


# Values past each narrower type; together they cancel to -90.875 (float16 outputs stay exact).
AFFINE_PARAMS = [("i8", "-3"), ("u8", "200"), ("i16", "-300"), ("u16", "40000"), ("i32", "-70000"),
                 ("u32", "3000000000"), ("i64", "-3000000001"), ("u64", "30000"), ("ch", "7"),
                 ("f32", "0.25"), ("f64", "-0.125"), ("flag", "true"), ("arr", "1,2,3")]
IO_OPS = {(2, 3): "MatrixIo23", (3, 4): "MatrixIo34", (4, 2): "MatrixIo42"}


def cases(which):
    """The covering design: every value of every axis, and the pairs of axes that interact.

    Not covered: a custom op's output consumed by a second custom op (chains of two and three nodes).
    edit_model writes such models (--chain on the command line runs them), but librknn_runtime 1.7.5
    crashes on them (SIGSEGV in rknn_init after 'Virtual tensor initialize'; a connection's right_tensor
    of type virtual_tensor is refused first: 'invalid connection right_tensor_type'), and rknnop-run
    runs one node and cannot take a tensor between two nodes (the model stores no dims for it). Until
    the toolkit's own form of such a graph is known, the axis is left out rather than guessed."""
    ci, more = [], []
    # dtype x side (input / graph output / intermediate of a chain): every dtype the model format names.
    for d in DTYPES:
        more.append(case(in_dtype=d, out_dtype="FLOAT16", rule="dtype x input"))
        more.append(case(in_dtype="FLOAT16", out_dtype=d, rule="dtype x graph output"))
    # dtype x pass_through / want_float, on the dtypes rknnop's tensors take.
    for d in DTYPES[:7]:
        more.append(case(dtype=d, pass_through=0, rule="dtype x pass_through 0"))
        more.append(case(dtype=d, want_float=1, rule="dtype x want_float 1"))
    # rank x dtype: ranks 1 to 6 (and 7, past the runtimes' limit), a dtype each, in a Latin rotation.
    shapes = [(5,), (3, 4), (2, 3, 4), (1, 2, 3, 4), (2, 1, 2, 3, 2), (1, 2, 1, 2, 3, 2), (1, 1, 2, 1, 2, 3, 2)]
    for r, s in enumerate(shapes):
        for k in range(2):
            more.append(case(dtype=DTYPES[(r + 3 * k) % 6], shape=s, rule="rank x dtype"))
    # Params: every scalar type at once (values past each narrower type), one at a time, the float16 scalar.
    more.append(case(params=AFFINE_PARAMS, rule="every scalar param type and an int32 array"))
    for p in AFFINE_PARAMS:  # float32 tensors: 3000000000 would overflow float16
        more.append(case(dtype="FLOAT32", params=[p], rule="param " + p[0]))
    more.append(case(params=[("arr", "")], rule="empty int32 array param"))
    more.append(case(op="MatrixHalf", params=[("h", "1.5")], rule="float16 scalar param"))
    # 1 to 4 inputs and outputs, with a dtype each.
    for (n, m), op in IO_OPS.items():
        for d in ("FLOAT16", "INT16", "UINT8"):
            more.append(case(op=op, n_in=n, n_out=m, dtype=d, params=[("offset", "0.5")], rule="inputs x outputs"))
    # op_version 1 (the armhf runtimes then find no library) and 2.
    for d in ("FLOAT16", "INT8"):
        more.append(case(dtype=d, op_version=1, rule="op_version 1"))
    # The CI part: one cell a question whose answer is known or new, a few seconds each.
    ci.append(case(rule="baseline"))
    ci.append(case(in_dtype="INT8", out_dtype="FLOAT16", rule="dtype x input"))
    ci.append(case(in_dtype="FLOAT16", out_dtype="INT32", rule="dtype x graph output"))
    ci.append(case(dtype="UINT8", want_float=1, rule="dtype x want_float 1"))
    ci.append(case(dtype="FLOAT32", shape=(1, 2, 1, 2, 3, 2), rule="rank x dtype"))
    ci.append(case(params=AFFINE_PARAMS, rule="every scalar param type and an int32 array"))
    ci.append(case(op="MatrixIo34", n_in=3, n_out=4, dtype="INT16", params=[("offset", "0.5")],
                   rule="inputs x outputs"))
    ci.append(case(in_dtype="UINT16", out_dtype="FLOAT16", rule="dtype x input"))
    ci.append(case(in_dtype="FLOAT16", out_dtype="FLOAT64", rule="dtype x graph output"))
    ci.append(case(in_dtype="BOOL8", out_dtype="FLOAT16", rule="dtype x input"))
    ci.append(case(dtype="INT8", pass_through=0, rule="dtype x pass_through 0"))
    ci.append(case(dtype="INT16", shape=(5,), rule="rank x dtype"))
    ci.append(case(shape=(1, 1, 2, 1, 2, 3, 2), rule="rank x dtype"))
    ci.append(case(params=[("arr", "")], rule="empty int32 array param"))
    ci.append(case(op="MatrixHalf", params=[("h", "1.5")], rule="float16 scalar param"))
    ci.append(case(dtype="INT8", op_version=1, rule="op_version 1"))
    if which == "ci":
        return ci
    seen, out = set(), []
    for c in ci + more:  # the CI cells first, each cell once
        key = json.dumps(c, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


# --- the model: wrap, then edit its graph JSON ----------------------------------------------------------------

def read_model(path):
    blob = open(path, "rb").read()
    version = struct.unpack_from("<Q", blob, 8)[0]
    sections, pos = [], 16
    for _ in range(4 if version >= 2 else 2):
        n = struct.unpack_from("<Q", blob, pos)[0]
        sections.append(blob[pos + 8:pos + 8 + n])
        pos += 8 + n
    return blob[:16], sections, blob[pos:]


def write_model(path, head, sections, tail):
    with open(path, "wb") as f:
        f.write(head)
        for s in sections:
            f.write(struct.pack("<Q", len(s)) + s)
        f.write(tail)


def edit_model(path, c):
    """Sets the tensors' dtypes and op_version and, for a chain, repeats the node (1 in, 1 out ops)."""
    head, sections, tail = read_model(path)
    graph = json.loads(sections[1])
    ops = json.loads(sections[2])
    for op in ops:
        op["op_version"] = c["op_version"]
    tensors = {t["tensor_id"]: t for t in graph["norm_tensor"]}
    node_ports = {(e["left"], e["left_tensor_id"]): e["right_tensor"]["tensor_id"] for e in graph["connection"]}
    if len(c["shape"]) > 6:  # wrap refuses rank 7 (OpenVX's limit is 6): the model says it anyway
        for t in tensors.values():
            t["size"], t["dim_num"] = list(reversed(c["shape"])), len(c["shape"])
    for i, d in enumerate(c["in"]):
        tensors[node_ports[("input", i)]]["dtype"]["vx_type"] = "VSI_NN_TYPE_" + d
    for i, d in enumerate(c["out"]):
        tensors[node_ports[("output", i)]]["dtype"]["vx_type"] = "VSI_NN_TYPE_" + d
    if c["chain"] > 1:
        node, dims = graph["nodes"][0], tensors[node_ports[("output", 0)]]["size"]
        base = node["lid"].rsplit("_", 1)[0]
        graph["nodes"], graph["connection"], graph["virtual_tensor"] = [], [], []
        for k in range(c["chain"]):
            n = dict(node, lid="%s_%d" % (base, k), name="%s_%d" % (base, k), uid=k)
            graph["nodes"].append(n)
            # Between two nodes: right_node both ways (the runtime refuses a virtual_tensor as a
            # connection's right_tensor); the virtual_tensor entry names its producer and carries the dtype.
            source = ({"right_tensor": {"type": "norm_tensor", "tensor_id": node_ports[("input", 0)]}} if k == 0 else
                      {"right_node": {"node_id": k - 1, "tensor_id": 0}})
            sink = ({"right_tensor": {"type": "norm_tensor", "tensor_id": node_ports[("output", 0)]}}
                    if k == c["chain"] - 1 else {"right_node": {"node_id": k + 1, "tensor_id": 0}})
            graph["connection"].append(dict({"node_id": k, "left": "input", "left_tensor_id": 0}, **source))
            graph["connection"].append(dict({"node_id": k, "left": "output", "left_tensor_id": 0}, **sink))
            if k < c["chain"] - 1:
                graph["virtual_tensor"].append({"tensor_id": 100 + k, "node_id": k, "output_port": 0, "size": dims, "dim_num": len(dims),
                                                "dtype": {"qnt_type": "VSI_NN_QNT_TYPE_NONE",
                                                          "vx_type": "VSI_NN_TYPE_" + c["mid"]}})
        graph["node_num"] = c["chain"]
        graph["virtual_tensor_num"] = c["chain"] - 1
    sections[1] = json.dumps(graph).encode()
    sections[2] = json.dumps(ops).encode()
    write_model(path, head, sections, tail)


def make_inputs(c, work, seed):
    """One .npy per input: the model's dtype (pass_through 1), or float32 / float16 for the runtime to convert."""
    rng = np.random.default_rng(seed)
    files = []
    for i, d in enumerate(c["in"]):
        if d in RANGES:
            lo, hi = RANGES[d]
            values = rng.integers(lo, hi, size=c["shape"]).astype(np.float64)
        else:
            values = rng.uniform(-4, 4, size=c["shape"]).astype(np.float16).astype(np.float64)
        kind = NUMPY.get(d, "<f2")  # a dtype NumPy lacks (bfloat16, vdata): float16 bytes, as wrap made them
        if not c["pass_through"]:
            kind = "<f2" if d == "FLOAT32" else "<f4"
        path = os.path.join(work, "in%d.npy" % i)
        np.save(path, values.astype(np.dtype(kind)))
        files.append(path)
    return files


# --- the two runs ---------------------------------------------------------------------------------------------

def first_failure(text):
    lines = [l for l in text.splitlines() if l.strip()]
    for pattern in (r"uncaught target signal|Segmentation|core dumped", r"failed: -?\d+", r"rknnop: ", r"error|Error|E \["):
        for l in lines:
            if re.search(pattern, l):
                return l.strip()[:300]
    return lines[-1].strip()[:300] if lines else "(no message)"


def run_board(args, c, model, inputs, work):
    outs = [os.path.join(work, "board%d.npy" % j) for j in range(len(c["out"]))]
    cmd = [args.board_run, "--variant", c["variant"], model]
    for i, f in enumerate(inputs):
        cmd += ["-i", "%d=%s" % (i, f)]
    for j, f in enumerate(outs):
        cmd += ["-o", "%d=%s" % (j, f)]
    if c["want_float"]:
        cmd.append("--want-float")
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=600)
    text = p.stdout + p.stderr
    if p.returncode == 77:
        raise SystemExit("matrix.py: skipped: " + first_failure(text))
    if p.returncode == 0:
        return {"answer": "ok", "outputs": outs, "message": ""}
    crashed = p.returncode < 0 or p.returncode >= 128 or re.search(r"uncaught target signal", text)
    # A Rockchip log line naming the cause ('E [...]') is the refusal's message; else the runner's line.
    cause = [l.strip() for l in text.splitlines() if re.match(r"\s*E \[|.*Unknow|.*error parse", l)]
    message = first_failure(text)
    if cause and cause[0] not in message:
        message = cause[0][:200] + " / " + message
    return {"answer": "crash" if crashed else "refused", "outputs": [], "message": message}


def run_ours(args, c, model, inputs, work):
    current = inputs
    for k in range(c["chain"]):
        last = k == c["chain"] - 1
        outs = [os.path.join(work, "host%d_%d.npy" % (k, j)) for j in range(len(c["out"]) if last else 1)]
        cmd = [args.run, model]
        if c["chain"] > 1:
            cmd += ["--node", str(k)]
        for i, f in enumerate(current):
            cmd += ["--input", "%d=%s" % (i, f)]
        for j, f in enumerate(outs):
            cmd += ["--output", "%d=%s" % (j, f)]
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=600)
        if p.returncode != 0:
            return {"answer": "crash" if p.returncode < 0 else "refused", "outputs": [],
                    "message": first_failure(p.stdout + p.stderr).replace(work + os.sep, "")}
        current = outs
    if c["want_float"]:  # rknnop-run has no want_float: the exact float32 value of each element
        for f in current:
            np.save(f, np.load(f).astype(np.float32))
    return {"answer": "ok", "outputs": current, "message": ""}


def compare(board, ours):
    if board["answer"] != "ok" or ours["answer"] != "ok":
        return board["answer"] != "ok" and ours["answer"] != "ok", ""
    notes = []
    for j, (b, o) in enumerate(zip(board["outputs"], ours["outputs"])):
        a, h = np.load(b), np.load(o)
        if a.dtype != h.dtype or a.shape != h.shape:
            notes.append("output %d: board %s %s, ours %s %s" % (j, a.dtype, a.shape, h.dtype, h.shape))
        elif a.tobytes() != h.tobytes():
            diff = np.flatnonzero(a.reshape(-1).view(np.uint8 if a.itemsize == 1 else "<u%d" % a.itemsize) !=
                                  h.reshape(-1).view(np.uint8 if h.itemsize == 1 else "<u%d" % h.itemsize))
            i = diff[0]
            notes.append("output %d: %d of %d elements differ, first [%d] board %r ours %r" %
                         (j, len(diff), a.size, i, a.reshape(-1)[i].item(), h.reshape(-1)[i].item()))
    return not notes, "; ".join(notes)


def known(c, board, ours):
    for k in KNOWN:
        if k["when"](c) and board["answer"] == k["board"] and \
                ours["answer"] == k["ours"] and re.search(k.get("ours_message", ""), ours["message"]):
            return k["rule"]
    return None


def wrap_shape(shape):
    """The shape wrap is given: at most rank 6 (edit_model writes a rank-7 shape into the model)."""
    shape = list(shape)
    while len(shape) > 6:
        shape[:2] = [shape[0] * shape[1]]
    return shape


def run_cell(args, c, index):
    with tempfile.TemporaryDirectory(prefix="rknnop-matrix.") as work:
        model = os.path.join(work, "model.rknn")
        wrap = [args.pack, "wrap", args.containers[c["op"]], "-o", model]
        wrap += sum((["--input-shape", "x%s=%s" % ("" if c["op"] in ("MatrixAffine", "MatrixHalf") else i,
                                                     ",".join(map(str, wrap_shape(c["shape"]))))]
                     for i in range(len(c["in"]))), [])
        wrap += sum((["-p", "%s=%s" % kv] for kv in c["params"]), [])
        p = subprocess.run(wrap, capture_output=True, text=True)
        if p.returncode != 0:
            return {"board": {"answer": "n/a", "message": ""}, "ours": {"answer": "refused",
                                                                       "message": "wrap: " + first_failure(p.stderr)},
                    "equal": False, "note": "wrap failed", "known": None}
        edit_model(model, c)
        inputs = make_inputs(c, work, 41 + index)
        t = time.monotonic()
        board = run_board(args, c, model, inputs, work)
        board_seconds = time.monotonic() - t
        ours = run_ours(args, c, model, inputs, work)
        equal, note = compare(board, ours)
        return {"board": board, "ours": ours, "equal": equal, "note": note, "seconds": board_seconds,
                "known": None if equal else known(c, board, ours)}


# --- the table ------------------------------------------------------------------------------------------------

def answer_text(a, note=""):
    text = a["answer"] + (": " + a["message"] if a.get("message") else "")
    return text.replace("|", "\\|")


def rule_text(c, r):
    if r["known"]:
        return "known difference `%s`" % r["known"]
    if not r["equal"]:
        return "**differs**: " + (r["note"] or "one side refuses")
    if r["board"]["answer"] == "ok":
        return "%s: accepted, identical bytes" % c["axis"]
    if r["board"]["answer"] == "crash":
        return "%s: ours refuses, the board crashes" % c["axis"]
    return "%s: refused by both" % c["axis"]


def table(rows):
    out = ["| cell | board (librknn_runtime) | ours (rknnop-run) | rule |", "|---|---|---|---|"]
    for c, r in rows:
        out.append("| `%s` | %s | %s | %s |" % (cell_id(c), answer_text(r["board"]), answer_text(r["ours"]),
                                              rule_text(c, r)))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", required=True)
    ap.add_argument("--pack", required=True)
    ap.add_argument("--op", action="append", required=True, help="NAME=OP.rknnop")
    ap.add_argument("--board-run", default=os.path.join(ROOT, "scripts", "board-run.sh"))
    ap.add_argument("--set", choices=["ci", "full"], default="ci")
    ap.add_argument("--variant", action="append", choices=VARIANTS)
    ap.add_argument("--only", action="append", help="run only cells whose id contains this text")
    ap.add_argument("--table")
    ap.add_argument("--docs")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--chain", type=int, help="run the MatrixAffine cells as N chained nodes (not part of the sets)")
    args = ap.parse_args()
    args.containers = dict(o.split("=", 1) for o in args.op)
    if not os.environ.get("RKNNOP_BOARD_DRIVERS"):
        print("matrix.py: skipped: set RKNNOP_BOARD_DRIVERS to an rknpu checkout")
        return 77
    cells = [dict(c, variant=v) for v in (args.variant or VARIANTS) for c in cases(args.set)]
    if args.chain:
        cells = [dict(c, chain=args.chain, mid=c["out"][0], axis="%d chained nodes" % args.chain)
                 for c in cells if c["op"] == "MatrixAffine"]
    if args.only:
        cells = [c for c in cells if any(o in cell_id(c) or o == c["axis"] for o in args.only)]
    if args.list:
        print("\n".join(cell_id(c) for c in cells))
        print("%d cells" % len(cells))
        return 0
    start, rows, failed = time.monotonic(), [], 0
    for i, c in enumerate(cells):
        r = run_cell(args, c, i)
        rows.append((c, r))
        verdict = "equal" if r["equal"] else ("known: " + r["known"] if r["known"] else "DIFFERS")
        failed += not r["equal"] and not r["known"]
        print("[%d/%d] %s: board %s, ours %s: %s %s" % (i + 1, len(cells), cell_id(c), answer_text(r["board"]),
                                                        answer_text(r["ours"]), verdict, r["note"]), flush=True)
    seconds = time.monotonic() - start
    summary = ("%d cells (%s set, %s), %d equal, %d known differences, %d unexplained differences; %.0f s on %d cores" %
               (len(cells), args.set, ", ".join(args.variant or VARIANTS), sum(r["equal"] for _, r in rows),
                sum(bool(r["known"]) for _, r in rows), failed, seconds, os.cpu_count()))
    print("matrix.py: " + summary)
    text = table(rows)
    if args.table:
        open(args.table, "w").write(text)
    if args.docs:
        doc = open(args.docs).read()
        begin, end = "<!-- matrix.py: begin -->", "<!-- matrix.py: end -->"
        if begin not in doc or end not in doc:
            raise SystemExit("matrix.py: %s has no %s / %s markers" % (args.docs, begin, end))
        known_text = "\n".join("- `%s`: %s" % (k["rule"], k["why"]) for k in KNOWN)
        generated = "%s\n%s\n\n%s\n\nKnown differences (matrix.py's KNOWN):\n\n%s\n%s" % (
            begin, "Generated by tests/board_abi/matrix/matrix.py --docs: " + summary + ".", text.rstrip(), known_text, end)
        doc = doc[:doc.index(begin)] + generated + doc[doc.index(end) + len(end):]
        open(args.docs, "w").write(doc)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
