#!/usr/bin/env python3
"""Cross-checks our unwind tables against binutils' own reading of .eh_frame.

For every location `readelf --debug-dump=frames-interp` lists, the row we built must give the same CFA rule
(rsp/rbp + offset) and the same place for the caller's rbp, or be marked unknown where readelf shows a rule
we do not follow. Usage: bench/check_unwind_readelf.py build/bin/bench_symbols lib.so [lib.so ...]
"""
import bisect
import re
import subprocess
import sys

UNKNOWN, END, NONE, FP_SAME, FP_UNKNOWN = 0xFF, 0xFE, 0xFD, -32768, -32767


def our_rows(tool, lib):
    out = subprocess.run([tool, "--rows", lib], capture_output=True, text=True, check=True).stdout
    return [tuple(int(x, 16) if i == 0 else int(x) for i, x in enumerate(line.split())) for line in out.splitlines()]


def readelf_rows(lib):
    """(pc, CFA rule, rbp rule, ra rule) per location. A register rule may itself contain a space
    ("r10 (r10)"): such a "(name)" token belongs to the one before it."""
    out = subprocess.run(["readelf", "--debug-dump=frames-interp", "-W", lib], capture_output=True, text=True).stdout
    columns = None
    for line in out.splitlines():
        if line.startswith("   LOC"):
            columns = line.split()[1:]
            continue
        if columns is None or not re.match(r"^[0-9a-f]{16} ", line):
            continue
        tokens = []
        for t in line.split()[1:]:
            if re.match(r"^\(.*\)$", t) and tokens:
                tokens[-1] += " " + t
            else:
                tokens.append(t)
        rule = dict(zip(columns, tokens))
        yield int(line[:16], 16), rule.get("CFA", "u"), rule.get("rbp", "u"), rule.get("ra", "u")


def main():
    tool, libs = sys.argv[1], sys.argv[2:]
    failed = False
    for lib in libs:
        rows = our_rows(tool, lib)
        pcs = [r[0] for r in rows]
        checked = bad = 0
        for pc, cfa, rbp, ra in readelf_rows(lib):
            if pc == 0:
                continue  # readelf's rows for CIEs, not code
            i = bisect.bisect_right(pcs, pc) - 1
            ours = rows[i] if i >= 0 and rows[i][1] != NONE else None
            m = re.match(r"^(rsp|rbp)\+(\d+)$", cfa)
            if not m or ra != "c-8":
                ok = ours is not None and ours[1] in (UNKNOWN, END)
                expected = "unknown"
            else:
                fp = FP_SAME if rbp in ("u", "s") else int(rbp[1:]) if re.match(r"^c-?\d+$", rbp) else FP_UNKNOWN
                expected = (7 if m.group(1) == "rsp" else 6, int(m.group(2)), fp)
                ok = ours is not None and ours[1:] == expected
            checked += 1
            if not ok:
                bad += 1
                if bad <= 5:
                    print(f"  {lib}: at {pc:#x} readelf CFA={cfa} rbp={rbp} ra={ra}, ours {ours}, expected {expected}")
        print(f"{lib}: {checked} locations checked, {bad} differ")
        failed |= bad > 0
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
