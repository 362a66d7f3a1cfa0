# SPDX-License-Identifier: MIT
"""Small helpers for board/compare.sh (no NumPy needed).

  board_tool.py random FILE SHAPE SEED [float32]
                                       float16 values in [-4, 4) (float32: the same values widened),
                                       SHAPE as 1,32,32,3
  board_tool.py shape FILE               prints the shape as 1,32,32,3
  board_tool.py compare A B LABEL [ULP]  exit 0 when dtype, shape and bytes are identical (float16/32
                                       elements: or at most ULP units in the last place apart)
  board_tool.py op-version MODEL N     sets "op_version": N in every op description of a .rknn
                                       model's custom_op_config, in place and at the same length
                                       (spaces of the JSON dropped), so no offset changes
"""
import ast
import json
import random
import struct
import sys


def write(path, descr, shape, data):
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data)


def read(path):
    with open(path, "rb") as f:
        blob = f.read(1 << 30)
    if blob[:6] != b"\x93NUMPY":
        raise SystemExit("board_tool.py: %s is no .npy file" % path)
    if blob[6] == 1:
        length, start = struct.unpack("<H", blob[8:10])[0], 10
    else:
        length, start = struct.unpack("<I", blob[8:12])[0], 12
    header = ast.literal_eval(blob[start:start + length].decode("latin-1"))
    return header["descr"], tuple(header["shape"]), blob[start + length:]


def main(argv):
    if argv[1] == "random":
        shape = [int(x) for x in argv[3].split(",")]
        rng = random.Random(int(argv[4]))
        count = 1
        for d in shape:
            count *= d
        values = [rng.uniform(-4.0, 4.0) for _ in range(count)]
        if len(argv) > 5 and argv[5] == "float32":  # float16 values widened: every conversion is exact
            values = struct.unpack("<%de" % count, struct.pack("<%de" % count, *values))
            write(argv[2], "<f4", shape, struct.pack("<%df" % count, *values))
        else:
            write(argv[2], "<f2", shape, struct.pack("<%de" % count, *values))
        return 0
    if argv[1] == "shape":
        print(",".join(str(d) for d in read(argv[2])[1]))
        return 0
    if argv[1] == "compare":
        (da, sa, a), (db, sb, b) = read(argv[2]), read(argv[3])
        label = argv[4]
        if (da, sa) != (db, sb):
            print("%s: host %s %s, board %s %s" % (label, da, sa, db, sb))
            return 1
        if a == b:
            return 0
        size = int(da[2:])
        diff = [i for i in range(len(a) // size) if a[i * size:(i + 1) * size] != b[i * size:(i + 1) * size]]
        fmt = {"<f2": "<e", "<f4": "<f"}.get(da)
        show = []
        for i in diff[:5]:
            if fmt:
                show.append("[%d] host %r board %r" % (i, struct.unpack(fmt, a[i * size:(i + 1) * size])[0],
                                                       struct.unpack(fmt, b[i * size:(i + 1) * size])[0]))
            else:
                show.append("[%d]" % i)
        print("%s: %d of %d elements differ: %s" % (label, len(diff), len(a) // size, "; ".join(show)))
        ulp = int(argv[5]) if len(argv) > 5 else 0
        if ulp and fmt:
            code = {"<f2": "<h", "<f4": "<i"}[da]
            worst = max(abs(struct.unpack(code, a[i * size:(i + 1) * size])[0] -
                            struct.unpack(code, b[i * size:(i + 1) * size])[0]) for i in diff)
            print("%s: at most %d ulp apart (allowed: %d)" % (label, worst, ulp))
            return 0 if worst <= ulp else 1
        return 1
    if argv[1] == "op-version":
        return set_op_version(argv[2], int(argv[3]))
    raise SystemExit(__doc__)


def set_op_version(path, version):
    """librknn_runtime 1.7.5 reads op_lib_armhf_offset/_len only when an op's op_version is above 1."""
    with open(path, "rb") as f:
        blob = bytearray(f.read(1 << 30))
    key = blob.find(b'"op_lib_x86_offset"')
    begin = blob.rfind(b"[{", 0, key) if key >= 0 else -1
    if begin < 0:
        raise SystemExit("board_tool.py: %s: no custom_op_config (op descriptions) found" % path)
    decoder = json.JSONDecoder()
    ops, end = decoder.raw_decode(blob[begin:].decode("latin-1"))
    for op in ops:
        op["op_version"] = version
    text = json.dumps(ops, separators=(",", ":"))
    if len(text) > end:
        raise SystemExit("board_tool.py: %s: the compact custom_op_config is longer than the original" % path)
    text = text[:-1] + " " * (end - len(text)) + "]"  # same length: no offset of the model changes
    blob[begin:begin + end] = text.encode("latin-1")
    with open(path, "wb") as f:
        f.write(blob)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
