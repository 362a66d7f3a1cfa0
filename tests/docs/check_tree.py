#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks on the source tree as a whole (run by ctest, see tests/docs/CMakeLists.txt).

  check_tree.py citations ROOT   every "docs/<file>.md §N" cited anywhere in the tree (and every
                                 "<file>.md §N" inside docs/) names a file and a numbered section
                                 heading ("## N. Title", "### N.M Title") that exist
  check_tree.py spdx ROOT        every source, CMake, script and test file starts with an
                                 SPDX-License-Identifier line (line 1, or line 2 after a shebang)
  check_tree.py self-test        runs both checks on small generated trees and fails unless they
                                 report exactly the planted faults

Files are those git tracks plus untracked ones it does not ignore; without git, every file below
ROOT outside build directories. Exit status 0 when the check passes, 1 with one line per fault.
"""
import os
import re
import subprocess
import sys
import tempfile

# "docs/abi.md §3", also "docs/abi.md §3, §4" and "docs/abi.md §3 and §4"
CITATION = re.compile(r"(docs/)?([A-Za-z0-9_-]+\.md) (§\d+(?:\.\d+)*(?:(?:, | and )§\d+(?:\.\d+)*)*)")
SECTION_NUMBER = re.compile(r"§(\d+(?:\.\d+)*)")
HEADING = re.compile(r"^#{2,6}\s+(\d+(?:\.\d+)*)[.\s]")
SKIPPED_DIRS = {".git", "out", "node_modules", "__pycache__"}

# What the SPDX rule covers: sources, CMake, scripts (by extension or shebang) and test programs.
SPDX_SUFFIXES = (".c", ".h", ".cpp", ".hpp", ".cc", ".cxx", ".cl", ".vx", ".cmake", ".sh", ".py", ".in",
                 ".map")
SPDX_NAMES = {"CMakeLists.txt"}
# Test data whose bytes or line numbers a test depends on, so a header line would change the test.
SPDX_EXEMPT = (
    re.compile(r"^tests/[^/]+/data/"),          # fixtures: shaders with errors at given lines, .npy
    re.compile(r"^tests/fuzz/corpus/"),         # fuzzer corpora
    re.compile(r"^tests/host/kernels/rknn_op_testscale\.py$"),  # read as YAML, error expected on line 4
)


def tree_files(root):
    """Paths relative to root, '/'-separated."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             check=True, capture_output=True).stdout
        return sorted(p for p in out.decode().split("\0") if p and os.path.isfile(os.path.join(root, p)))
    except (OSError, subprocess.CalledProcessError):
        files = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d not in SKIPPED_DIRS and not d.startswith("build")]
            for name in filenames:
                files.append(os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/"))
        return sorted(files)


def read_text(path):
    """The file's text, or None for binary or unreadable files."""
    try:
        with open(path, "rb") as f:
            data = f.read(1 << 20)
    except OSError:
        return None
    if b"\0" in data:
        return None
    return data.decode("utf-8", errors="replace")


def section_numbers(path):
    numbers = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = HEADING.match(line)
            if m:
                numbers.add(m.group(1))
    return numbers


def check_citations(root):
    faults = []
    sections = {}
    for rel in tree_files(root):
        text = read_text(os.path.join(root, rel))
        if text is None:
            continue
        in_docs = rel.startswith("docs/")
        for lineno, line in enumerate(text.splitlines(), 1):
            for m in CITATION.finditer(line):
                if not m.group(1) and not in_docs:
                    continue  # "README.md §2" outside docs/ is not a citation of docs/
                doc = "docs/" + m.group(2)
                if doc not in sections:
                    full = os.path.join(root, doc)
                    sections[doc] = section_numbers(full) if os.path.isfile(full) else None
                for number in SECTION_NUMBER.findall(m.group(3)):
                    if sections[doc] is None:
                        faults.append(f"{rel}:{lineno}: cites {doc} §{number}, but {doc} does not exist")
                    elif number not in sections[doc]:
                        known = ", ".join(sorted(sections[doc], key=lambda n: [int(x) for x in n.split(".")]))
                        faults.append(f"{rel}:{lineno}: cites {doc} §{number}, which has no section {number} "
                                      f"(it has: {known or 'no numbered sections'})")
    return faults


def needs_spdx(rel):
    name = rel.rsplit("/", 1)[-1]
    if any(p.search(rel) for p in SPDX_EXEMPT):
        return False
    return name in SPDX_NAMES or name.endswith(SPDX_SUFFIXES)


def check_spdx(root):
    faults = []
    for rel in tree_files(root):
        text = read_text(os.path.join(root, rel))
        if text is None:
            continue
        lines = text.splitlines()[:2]
        if not needs_spdx(rel) and not (lines and lines[0].startswith("#!")):
            continue
        header = lines[1] if lines and lines[0].startswith("#!") and len(lines) > 1 else (lines[0] if lines else "")
        if "SPDX-License-Identifier: MIT" not in header:
            where = "line 2 (after the shebang)" if lines and lines[0].startswith("#!") else "line 1"
            faults.append(f"{rel}: no 'SPDX-License-Identifier: MIT' on {where}")
    return faults


def self_test():
    planted = {
        "docs/a.md": "# A\n\n## 1. One\n\n### 1.2 Sub\n\nSee b.md \u00a71 and a.md \u00a71.\n",
        "src/good.cpp": "// SPDX-License-Identifier: MIT\n// (docs/a.md \u00a71) (docs/a.md \u00a71.2)\n",
        "src/bad_section.cpp": "// SPDX-License-Identifier: MIT\n// (docs/a.md \u00a73)\n// docs/a.md \u00a71, \u00a75 and \u00a71.2\n",
        "src/bad_file.hpp": "// SPDX-License-Identifier: MIT\n// see docs/missing.md \u00a71\n",
        "scripts/ok.sh": "#!/bin/sh\n# SPDX-License-Identifier: MIT\n",
        "scripts/no_header.sh": "#!/bin/sh\necho hi\n",
        "CMakeLists.txt": "project(x)\n",
        "tests/x/data/fixture.vx": "__kernel void f() {}\n",
        "notes.txt": "README.md \u00a79 is not a docs citation\n",
    }
    expected_citations = [
        "docs/a.md:7: cites docs/b.md \u00a71, but docs/b.md does not exist",
        "src/bad_file.hpp:2: cites docs/missing.md \u00a71, but docs/missing.md does not exist",
        "src/bad_section.cpp:2: cites docs/a.md \u00a73, which has no section 3 (it has: 1, 1.2)",
        "src/bad_section.cpp:3: cites docs/a.md \u00a75, which has no section 5 (it has: 1, 1.2)",
    ]
    expected_spdx = [
        "CMakeLists.txt: no 'SPDX-License-Identifier: MIT' on line 1",
        "scripts/no_header.sh: no 'SPDX-License-Identifier: MIT' on line 2 (after the shebang)",
    ]
    with tempfile.TemporaryDirectory() as root:
        for rel, text in planted.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)) or root, exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        got_citations = check_citations(root)
        got_spdx = check_spdx(root)
    ok = True
    for what, got, want in (("citations", got_citations, expected_citations), ("spdx", got_spdx, expected_spdx)):
        if sorted(got) != sorted(want):
            ok = False
            print(f"rknnop: check_tree self-test: {what} reported:\n  " + "\n  ".join(got) +
                  "\nexpected:\n  " + "\n  ".join(want))
    if ok:
        print("rknnop: check_tree self-test: both checks report exactly the planted faults")
    return 0 if ok else 1


def main(argv):
    if len(argv) == 2 and argv[1] == "self-test":
        return self_test()
    if len(argv) != 3 or argv[1] not in ("citations", "spdx"):
        print(__doc__, file=sys.stderr)
        return 2
    check, root = argv[1], argv[2]
    faults = check_citations(root) if check == "citations" else check_spdx(root)
    for fault in faults:
        print(f"rknnop: {fault}")
    if faults:
        hint = ("number the docs/ heading ('## N. Title') or fix the citation" if check == "citations"
                else "add '// SPDX-License-Identifier: MIT' (or '#', '/* */' as the file's comments go)")
        print(f"rknnop: {len(faults)} fault(s); {hint}")
        return 1
    print(f"rknnop: {check}: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
