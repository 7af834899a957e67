#!/usr/bin/env python3
"""Checks that README.md's synopsis of each `ort` subcommand (the code block after its
'## `ort CMD`' heading) names exactly the options `ort CMD --help` lists, so that neither can
drift from the other.   check_readme_synopses.py ORT_BINARY README.md"""
import re
import subprocess
import sys

ort, readme = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
failures = 0
for command in ("run", "perf", "optimize", "quantize", "inspect", "compare"):
    section = re.search(r"^## `ort " + command + r"`\n+```\n(.*?)```", text, re.S | re.M)
    if not section:
        print(f"FAIL {command}: no '## `ort {command}`' section with a synopsis block")
        failures += 1
        continue
    synopsis = set(re.findall(r"(?<![\w-])(--?[a-zA-Z][a-z0-9-]*)", section.group(1)))
    help_text = subprocess.run([ort, command, "--help"], capture_output=True, text=True).stdout
    # "  -x,--intra-op-threads INT": the option is named in the synopsis by either spelling.
    options = [(short, long) for short, long in
               re.findall(r"^\s+(?:(-\w),)?(--[a-z][a-z0-9-]*)", help_text, re.M)
               if long != "--help"]
    known = {name for pair in options for name in pair if name}
    missing = sorted(long for short, long in options if long not in synopsis and short not in synopsis)
    unknown = sorted(name for name in synopsis if name not in known and name.startswith("--"))
    if missing or unknown:
        failures += 1
        print(f"FAIL {command}: README synopsis lacks {missing or '-'}; names unknown {unknown or '-'}")
    else:
        print(f"ok   {command}: {len(options)} options")
sys.exit(1 if failures else 0)
