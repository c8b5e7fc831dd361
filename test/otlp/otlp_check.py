#!/usr/bin/python3
"""Checks an OpenTelemetry profile decoded by `protoc --decode` (its text format) against what the workload
did. Exits 1 listing every failed check; prints a summary line either way.

Usage: otlp_check.py DECODED [--type T] [--unit U] [--period-unit U] [--period N] [--sum N | --sum-range LO:HI]
                     [--share HOT:OTHER:TRUTH] [--hot NAME:LEAST]
                     [--leaf-first LEAF:ROOT] [--thread TEXT] [--collapsed FILE]
                     [--since UNIX_NS]
"""
import argparse
import ast
import sys


def parse(text):
    """The text format as nested dicts: field name -> list of values (ints, strings, dicts)."""
    root, stack = {}, []
    node = root
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line == "}":
            node = stack.pop()
        elif line.endswith("{"):
            child = {}
            node.setdefault(line[:-1].strip(), []).append(child)
            stack.append(node)
            node = child
        else:
            name, value = line.split(":", 1)
            value = value.strip()
            if value.startswith('"'):
                value = ast.literal_eval("b" + value).decode("utf-8", "replace")
            else:
                value = int(value)
            node.setdefault(name, []).append(value)
    return root


def one(msg, name, default=0):
    return msg.get(name, [default])[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("decoded")
    ap.add_argument("--type")
    ap.add_argument("--unit")
    ap.add_argument("--period-unit")
    ap.add_argument("--period", type=int)
    ap.add_argument("--sum", type=int)
    ap.add_argument("--sum-range")
    ap.add_argument("--share")
    ap.add_argument("--leaf-first")
    ap.add_argument("--hot")
    ap.add_argument("--thread")
    ap.add_argument("--collapsed")
    ap.add_argument("--since", type=int)
    a = ap.parse_args()
    data = parse(open(a.decoded, encoding="utf-8").read())
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
        return ok

    d = one(data, "dictionary", {})
    strings = d.get("string_table", [])
    functions, locations = d.get("function_table", []), d.get("location_table", [])
    stacks, attributes = d.get("stack_table", []), d.get("attribute_table", [])
    check(strings[:1] == [""], "string_table[0] is not the empty string")
    for table, name in ((functions, "function"), (locations, "location"), (stacks, "stack"),
                        (attributes, "attribute"), (d.get("mapping_table", []), "mapping")):
        check(table and table[0] == {}, "%s_table[0] is not the zero value" % name)

    def string(i):
        return strings[i] if check(0 <= i < len(strings), "string index %d out of range" % i) else "?"

    for f in functions[1:]:
        check(one(f, "name_strindex") > 0, "a function without a name")
    names = [string(one(f, "name_strindex")) for f in functions]
    for loc in locations[1:]:
        lines = loc.get("lines", [])
        check(len(lines) == 1, "a location with %d lines" % len(lines))
        for ln in lines:
            check(0 < one(ln, "function_index") < len(functions), "a line's function out of range")
    resources = data.get("resource_profiles", [])
    check(len(resources) == 1, "%d resource_profiles" % len(resources))
    scopes = one(resources[0], "scope_profiles", {}) if resources else {}
    profiles = scopes.get("profiles", [])
    check(len(profiles) == 1, "%d profiles" % len(profiles))
    profile = profiles[0] if profiles else {}
    sample_type, period_type = one(profile, "sample_type", {}), one(profile, "period_type", {})
    stype, sunit = string(one(sample_type, "type_strindex")), string(one(sample_type, "unit_strindex"))
    ptype, punit = string(one(period_type, "type_strindex")), string(one(period_type, "unit_strindex"))
    if a.type:
        check(stype in a.type.split("|"), "sample type %r, expected %s" % (stype, a.type))
    check(stype == ptype, "period type %r differs from the sample type %r" % (ptype, stype))
    if a.unit:
        check(sunit == a.unit, "sample unit %r, expected %r" % (sunit, a.unit))
    if a.period_unit:
        check(punit == a.period_unit, "period unit %r, expected %r" % (punit, a.period_unit))
    if a.period is not None:
        check(one(profile, "period") == a.period, "period %d, expected %d" % (one(profile, "period"), a.period))
    if a.since is not None:
        t = one(profile, "time_unix_nano")
        check(a.since - 60 * 10**9 <= t <= a.since + 120 * 10**9, "time_unix_nano %d, not near %d" % (t, a.since))

    # Each sample: its stack's frames leaf first, its value, its thread.
    thread_key = strings.index("thread.name") if "thread.name" in strings else -1
    by_stack, total, threads, leaf_first_ok, leaf_first_bad = {}, 0, set(), 0, 0
    for s in profile.get("samples", []):
        si = one(s, "stack_index")
        if not check(0 < si < len(stacks), "a sample's stack %d out of range" % si):
            continue
        frames = []
        for li in stacks[si].get("location_indices", []):
            if check(0 < li < len(locations), "a stack's location %d out of range" % li):
                frames.append(names[one(one(locations[li], "lines", {}), "function_index")])
        values = s.get("values", [])
        check(len(values) == 1, "a sample with %d values" % len(values))
        value = sum(values)
        total += value
        key = ";".join(reversed(frames))
        by_stack[key] = by_stack.get(key, 0) + value
        for ai in s.get("attribute_indices", []):
            if check(0 < ai < len(attributes), "an attribute index %d out of range" % ai):
                attr = attributes[ai]
                check(one(attr, "key_strindex") == thread_key, "an attribute other than thread.name")
                threads.add(one(one(attr, "value", {}), "string_value", ""))
        if a.leaf_first:
            leaf, root = a.leaf_first.split(":")
            at_leaf = [i for i, f in enumerate(frames) if f.endswith(leaf)]
            at_root = [i for i, f in enumerate(frames) if f.endswith(root)]
            if at_leaf and at_root:
                if at_leaf[0] < at_root[0]:
                    leaf_first_ok += 1
                else:
                    leaf_first_bad += 1

    if a.sum is not None:
        check(total == a.sum, "values sum to %d, the profile counted %d" % (total, a.sum))
    if a.sum_range:
        lo, hi = (float(x) for x in a.sum_range.split(":"))
        check(lo <= total <= hi, "values sum to %d, expected %s" % (total, a.sum_range))
    if a.leaf_first:
        check(leaf_first_ok > 0 and leaf_first_bad == 0,
              "stacks leaf first: %d in order, %d reversed" % (leaf_first_ok, leaf_first_bad))
    share = ""
    if a.share:
        hot, other, truth = a.share.split(":")
        h = sum(v for k, v in by_stack.items() if any(hot in f for f in k.split(";")))
        o = sum(v for k, v in by_stack.items() if any(other in f for f in k.split(";")))
        if check(h + o >= 50, "too few samples of the workload: %d + %d" % (h, o)):
            share = " share=%.3f (truth %s)" % (h / (h + o), truth)
            check(abs(h / (h + o) - float(truth)) <= 0.10, "%s share %.3f, truth %s" % (hot, h / (h + o), truth))
    if a.hot:
        name, least = a.hot.split(":")
        h = sum(v for k, v in by_stack.items() if any(name in f for f in k.split(";")))
        check(total > 0 and h / total >= float(least), "%s in %d of %d, expected a share of %s" % (
            name, h, total, least))
    if a.thread:
        check(any(a.thread in t for t in threads), "no thread.name containing %r: %s" % (a.thread, sorted(threads)))
    if a.collapsed:
        expected = {}
        for line in open(a.collapsed, encoding="utf-8"):
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if stack and not stack.startswith("[dropped"):
                expected[stack] = expected.get(stack, 0) + int(count)
        differing = [k for k in set(expected) | set(by_stack) if expected.get(k, 0) != by_stack.get(k, 0)]
        check(not differing, "%d stacks differ from the collapsed output, e.g. %r: %s here, %s there" % (
            len(differing), differing[0] if differing else "", by_stack.get(differing[0]) if differing else "",
            expected.get(differing[0]) if differing else ""))
    print("otlp: type=%s/%s period=%s/%s/%d samples=%d stacks=%d functions=%d locations=%d total=%d threads=%d%s" % (
        stype, sunit, ptype, punit, one(profile, "period"), len(profile.get("samples", [])), len(stacks) - 1,
        len(functions) - 1, len(locations) - 1, total, len(threads), share))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
