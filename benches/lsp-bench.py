#!/usr/bin/env python3
"""Keystroke to diagnostics through the real protocol: a client starts
`activity-site lsp`, opens a data file, then sends RUNS `didChange`
notifications of one character each (typed into, then deleted from, an
activity's description) and times each until the `publishDiagnostics` of
that version arrives. Prints the median, min and max in milliseconds.

Usage: benches/lsp-bench.py BIN ROOT FILE [RUNS]   (FILE relative to ROOT)
"""

import json
import os
import statistics
import subprocess
import sys
import time


def send(proc, message):
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def receive(proc):
    length = 0
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit("the server closed its output")
        line = line.strip()
        if not line:
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(proc.stdout.read(length))


def wait(proc, wanted):
    while True:
        message = receive(proc)
        if wanted(message):
            return message


def main():
    binary, root, rel = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 41
    uri = "file://" + os.path.join(root, rel)
    text = open(os.path.join(root, rel), encoding="utf-8").read()
    proc = subprocess.Popen(
        [binary, "lsp", "--root", root, "--now", "2026-10-15T12:00:00"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"processId": None, "rootUri": "file://" + root, "capabilities": {}}})
    wait(proc, lambda m: m.get("id") == 1)
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}})
    is_publish = lambda v: lambda m: (m.get("method") == "textDocument/publishDiagnostics"
                                      and m["params"]["uri"] == uri and m["params"].get("version") == v)
    wait(proc, is_publish(1))
    # The position just inside the first description's opening quote.
    lines = text.split("\n")
    row = next(i for i, l in enumerate(lines) if '"description": "' in l)
    prefix = lines[row][: lines[row].index('"description": "') + len('"description": "')]
    col = len(prefix.encode("utf-16-le")) // 2  # UTF-16 units, the protocol's default
    at = {"line": row, "character": col}
    after = {"line": row, "character": col + 1}
    times = []
    for version in range(2, runs + 2):
        change = ({"range": {"start": at, "end": at}, "text": "x"} if version % 2 == 0
                  else {"range": {"start": at, "end": after}, "text": ""})
        started = time.perf_counter()
        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didChange",
                    "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}})
        wait(proc, is_publish(version))
        times.append((time.perf_counter() - started) * 1000)
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
    wait(proc, lambda m: m.get("id") == 2)
    send(proc, {"jsonrpc": "2.0", "method": "exit", "params": None})
    proc.wait(timeout=30)
    print(f"{rel}: {len(text.encode()) / 1e6:.2f} MB, {runs} keystrokes: "
          f"median {statistics.median(times):.1f} ms, min {min(times):.1f} ms, max {max(times):.1f} ms")


if __name__ == "__main__":
    main()
