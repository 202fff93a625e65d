#!/usr/bin/env python3
"""Summarizes libvkcl-sampler.so's samples (sampler.cpp): the functions that
took the most CPU time themselves (self) and with what they called
(inclusive), and the time per library.

  report.py SAMPLES... [--top N] [--symbols DIR]...

Several files (a client and its compile workers, say) are summed.

Each sampled address is located in the library the process had mapped
there; a library found by name in a --symbols directory (unstripped copies,
e.g. build/api/opencl) is symbolized with addr2line, others are shown as
library+offset (the machine's own libraries may differ from the sampled
one's).
"""
import argparse
import collections
import os
import subprocess


def parse(path):
    maps, samples = [], []
    with open(path) as f:
        for line in f:
            if line.startswith("map "):
                parts = line.split()
                lo, hi = (int(x, 16) for x in parts[1].split("-"))
                if "x" in parts[2] and len(parts) >= 7:
                    maps.append((lo, hi, int(parts[3], 16), parts[6]))
            elif line.startswith("sample"):
                samples.append([int(x, 16) for x in line.split()[1:]])
    return maps, samples


def locate(maps, address):
    for lo, hi, offset, path in maps:
        if lo <= address < hi:
            return path, address - lo + offset
    return "?", address


def symbolize(places, symbol_dirs):
    by_lib = collections.defaultdict(set)
    for lib, offset in places:
        by_lib[lib].add(offset)
    names = {}
    for lib, offsets in by_lib.items():
        local = next((os.path.join(d, os.path.basename(lib)) for d in symbol_dirs
                      if os.path.exists(os.path.join(d, os.path.basename(lib)))), None)
        offsets = sorted(offsets)
        if local:
            out = subprocess.run(["addr2line", "-f", "-C", "-e", local] + [hex(o) for o in offsets],
                                 capture_output=True, text=True).stdout.splitlines()
            for i, o in enumerate(offsets):
                name = out[2 * i] if 2 * i < len(out) else "??"
                names[(lib, o)] = (name if name != "??" else hex(o)) + " [" + os.path.basename(lib) + "]"
        else:
            for o in offsets:
                names[(lib, o)] = os.path.basename(lib) + "+" + hex(o)
    return names


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("samples", nargs="+")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--symbols", action="append", default=[])
    parser.add_argument("--skip", type=int, default=2, help="frames of the signal handler to drop")
    args = parser.parse_args()
    stacks = []
    for path in args.samples:
        maps, samples = parse(path)
        for s in samples:
            frames = s[args.skip:]
            # Return addresses point after the call; -1 lands inside it.
            stacks.append([locate(maps, a if i == 0 else a - 1) for i, a in enumerate(frames)])
    names = symbolize({p for st in stacks for p in st}, args.symbols)
    total = len(stacks)
    self_time, inclusive, per_lib = collections.Counter(), collections.Counter(), collections.Counter()
    for st in stacks:
        if not st:
            continue
        self_time[names[st[0]]] += 1
        per_lib[os.path.basename(st[0][0])] += 1
        for n in {names[p] for p in st}:
            inclusive[n] += 1
    print(f"{total} samples (1 ms of CPU each)")
    for title, counter in (("by library (self)", per_lib), ("self", self_time), ("inclusive", inclusive)):
        print(f"\n{title}:")
        for name, n in counter.most_common(args.top):
            print(f"{100.0 * n / total:6.1f}%  {n:7d}  {name}")


if __name__ == "__main__":
    main()
