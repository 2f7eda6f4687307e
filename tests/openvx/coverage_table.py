#!/usr/bin/env python3
"""The per-function coverage table of docs/openvx.md, worked out from the sources.

A function is "not implemented" when one of the stub files defines it, "implemented" otherwise; its group
is the header that declares it. `--check DOC` fails when DOC's table differs from the sources (so the
documentation cannot drift); `--print` writes the table to paste into the document.
"""
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
HEADERS = ROOT / "framework/openvx/include/VX"
SOURCES = ROOT / "framework/openvx/src"
STUBS = [SOURCES / "not_implemented.cpp"]  # libvxu implements every immediate-mode function
GROUPS = [  # header -> group name, in table order
    ("vx_api.h", "OpenVX 1.3 core"),
    ("vx_nodes.h", "OpenVX 1.3 graph-mode kernels"),
    ("vxu.h", "OpenVX 1.3 immediate mode (libvxu)"),
    ("vx_khr_pipelining.h", "pipelining, streaming and events (vx_khr_pipelining)"),
    ("vx_khr_user_data_object.h", "user data objects (vx_khr_user_data_object)"),
    ("vx_khr_nn.h", "neural network layers (vx_khr_nn)"),
    ("vx_compatibility.h", "OpenVX 1.0 / 1.1 names (vx_compatibility)"),
]
DECLARED = re.compile(r"VX_API_CALL\s+(vxu?[A-Za-z0-9_]+)\s*\(")
BEGIN, END = "<!-- coverage table: begin -->", "<!-- coverage table: end -->"


def table():
    stubbed = set()
    for stub in STUBS:
        stubbed.update(DECLARED.findall(stub.read_text()))
    listed = set((HERE / "function_list.txt").read_text().split())
    rows, summary, seen = [], [], set()
    for header, group in GROUPS:
        names = sorted(set(DECLARED.findall((HEADERS / header).read_text())))
        done = [n for n in names if n not in stubbed]
        summary.append(f"| {group} | {len(names)} | {len(done)} | {len(names) - len(done)} |")
        for n in names:
            rows.append(f"| `{n}` | {group} | {'implemented' if n not in stubbed else 'not implemented'} |")
        seen.update(names)
    if seen != listed:
        raise SystemExit(f"function_list.txt and the headers differ: {sorted(seen ^ listed)}")
    return "\n".join(
        [BEGIN, "", "| group | functions | implemented | not implemented |", "|---|---|---|---|", *summary, "",
         "| function | group | state |", "|---|---|---|", *rows, "", END])


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        text = pathlib.Path(sys.argv[2]).read_text()
        start, stop = text.find(BEGIN), text.find(END)
        if start < 0 or stop < 0:
            raise SystemExit(f"{sys.argv[2]}: no '{BEGIN}' ... '{END}' block")
        if text[start:stop + len(END)] != table():
            raise SystemExit(f"{sys.argv[2]}: the coverage table is out of date; "
                             f"replace it with the output of {sys.argv[0]} --print")
        print("coverage table matches the sources")
    elif len(sys.argv) == 2 and sys.argv[1] == "--print":
        print(table())
    else:
        raise SystemExit(f"usage: {sys.argv[0]} --print | --check DOC")


if __name__ == "__main__":
    main()
