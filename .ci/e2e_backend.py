#!/usr/bin/env python3
"""Issue 38's end-to-end driver (stdlib only), run by .ci/e2e-backend.sh.

  e2e_backend.py compare COMMITTED.json FRESH.json
      compares two transcripts of the real program (record.py): the same
      commands, and for every answer line the same keys and value types.
  e2e_backend.py drive BASE STATE_DIR SRA_CLI
      drives the whole control API of `serve --backend-command SRA_CLI` at
      BASE: status, configurations, settings, a run of a stored
      configuration, single, stop, extensions, operator list/help and a
      call that fails cleanly, logs and the log stream, the screenshot,
      restart. Prints one line per check; exits 1 at the first failure.
"""
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request


def shape(value, path="$"):
    if isinstance(value, dict):
        out = []
        for key in sorted(value):
            out.append(f"{path}.{key}: {type(value[key]).__name__}")
            out.extend(shape(value[key], f"{path}.{key}"))
        return out
    if isinstance(value, list) and value:
        return shape(value[0], path + "[]")
    return []


def compare(committed, fresh):
    a, b = (json.load(open(p, encoding="utf-8")) for p in (committed, fresh))
    problems = []
    if len(a["exchanges"]) != len(b["exchanges"]):
        problems.append(f"{len(a['exchanges'])} exchanges recorded, {len(b['exchanges'])} now")
    for old, new in zip(a["exchanges"], b["exchanges"]):
        if old["send"] != new["send"]:
            problems.append(f"commands differ: {old['send']} / {new['send']}")
            continue
        answers = lambda e: [json.loads(l) for l in e["stdout"] if l.startswith("{")]
        for x, y in zip(answers(old), answers(new)):
            if shape(x) != shape(y) or x.get("success") != y.get("success"):
                problems.append(f"{old['send']}: {x} / {y}")
        # Timing may move a `running` answer; the status values are the program's own.
    for p in problems:
        print("DIFFERENT:", p)
    print(f"compared {len(b['exchanges'])} exchanges with the committed transcript: "
          f"{'same shapes' if not problems else f'{len(problems)} differences'}")
    return 1 if problems else 0


class Api:
    def __init__(self, base):
        self.base = base

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                raw, status, kind = r.read(), r.status, r.headers.get("Content-Type", "")
        except urllib.error.HTTPError as e:
            raw, status, kind = e.read(), e.code, e.headers.get("Content-Type", "")
        if "json" in kind:
            return status, json.loads(raw)
        return status, raw


passed = 0


def check(what, ok, detail=""):
    global passed
    if not ok:
        print(f"FAIL  {what}: {detail}")
        sys.exit(1)
    passed += 1
    print(f"ok    {what}" + (f" ({detail})" if detail else ""))


def drive(base, state, sra_cli):
    api = Api(base)
    get = lambda p: api.call("GET", p)
    post = lambda p, b=None: api.call("POST", p, {} if b is None else b)
    put = lambda p, b: api.call("PUT", p, b)

    # The log stream, read from the start in a thread.
    events = []

    def stream():
        req = urllib.request.Request(base + "/api/Backend/logs/stream", headers={"Last-Event-ID": "0"})
        try:
            with urllib.request.urlopen(req, timeout=300) as r:
                for raw in r:
                    line = raw.decode("utf-8", "replace").rstrip("\n")
                    if line.startswith("data:"):
                        events.append(line[5:].strip())
        except Exception:
            pass

    threading.Thread(target=stream, daemon=True).start()

    code, status = get("/api/Task/status")
    data = status.get("data") or {}
    check("GET /api/Task/status answers the contract's shape", code == 200 and isinstance(data.get("progress"), str)
          and isinstance(data.get("completedTasks"), int) and data.get("pid", 0) > 0, json.dumps(data)[:200])
    pid = data["pid"]

    # One store: the child's ~/.config/SRA is the state directory.
    home = os.path.join(state, "backend", "home")
    where = subprocess.run([sra_cli, "where", "settings"], env=dict(os.environ, HOME=home),
                           capture_output=True, text=True, cwd=state).stdout.strip()
    check("the real program's settings file is the state directory's",
          os.path.realpath(where) == os.path.realpath(os.path.join(state, "settings.json")), where)

    code, configs = get("/api/Configs")
    check("GET /api/Configs", code == 200 and "Default" in configs["data"], configs)
    nothing = {"startGame": {"enabled": False}, "trailblazePower": {"enabled": False},
               "receiveRewards": {"enabled": False}, "cosmicStrife": {"enabled": False},
               "missionAccomplished": {"enabled": False}}
    code, created = post("/api/Configs/Nothing", nothing)
    check("POST /api/Configs/Nothing (every task off)", code == 200, created.get("message"))
    code, replaced = put("/api/Configs/Nothing", dict(nothing, receiveRewards={"enabled": False, "redeemCodes": "E2E-ONE-STORE"}))
    check("PUT /api/Configs/Nothing", code == 200, replaced.get("message"))

    code, settings = get("/api/Settings")
    check("GET /api/Settings", code == 200 and isinstance(settings.get("data"), dict))
    code, updated = put("/api/Settings", {"display": {"theme": "dark"}})
    check("PUT /api/Settings", code == 200, json.dumps(updated)[:160])
    check("settings.json is where the backend reads it",
          os.path.isfile(os.path.join(home, ".config", "SRA", "settings.json")))

    def settle():
        deadline = time.time() + 60
        while True:
            _, s = get("/api/Task/status")
            if s["data"]["status"] != "running" or time.time() > deadline:
                return s["data"]
            time.sleep(0.2)

    code, run = post("/api/Task/run", {"configName": "Nothing"})
    check("POST /api/Task/run of a stored configuration starts it", code == 200
          and run["data"]["configs"] == ["Nothing"], json.dumps(run)[:240])
    done = settle()
    # On Linux the real program makes its operator (which needs pyautogui and
    # a game window) before it looks at which tasks are on: every run of a
    # stored configuration fails, with its own error.
    check("the run ended failed with the backend's own error", done["status"] == "failed"
          and done["error"] == "No module named 'pyautogui'" and done["configs"] == ["Nothing"],
          json.dumps(done)[:240])
    code, logs = get("/api/Backend/logs?count=400")
    check("the backend read the configuration the API stored (one store)",
          any("'redeemCodes': 'E2E-ONE-STORE'" in l for l in logs["data"]))

    code, run = post("/api/Task/run", {"configName": "Default"})
    check("POST /api/Task/run Default", code == 200, json.dumps(run)[:200])
    done = settle()
    check("Default fails on Linux with the backend's own error", done["status"] == "failed"
          and "pyautogui" in (done.get("error") or ""), json.dumps(done)[:240])
    code, logs = get("/api/Backend/logs?count=400")
    check("the backend read the configurations the API wrote (no missing file, one store)",
          any("'trailblazePower'" in l for l in logs["data"]) and not any("找不到文件" in l for l in logs["data"]))

    code, temp = post("/api/Task/run", {"config": nothing, "persist": False})
    check("POST /api/Task/run with persist: false reaches the backend",
          code == 200 and temp["data"]["target"] == "(temporary configuration)", json.dumps(temp)[:200])
    settle()

    code, single = post("/api/Task/single", {"taskName": "StartGameTask", "configName": "Default"})
    check("POST /api/Task/single", code == 200 and single["data"]["job"] == "single", json.dumps(single)[:240])
    settle()
    code, stop = post("/api/Task/stop")
    check("POST /api/Task/stop (nothing running)", code == 200 and stop["data"]["status"] != "running",
          stop["data"]["status"])

    code, exts = get("/api/Extensions")
    check("GET /api/Extensions: the backend's own (none registered)", code == 200 and exts["data"] == [], exts)
    code, reload = post("/api/Extensions/reload")
    check("POST /api/Extensions/reload", code == 200 and reload["data"]["loaded"] == [], reload)
    code, schema = get("/api/Extensions/daily-checkin/schema")
    check("an extension the backend lacks is 404", code == 404, schema.get("message"))

    code, methods = get("/api/Operator/list")
    names = [m["name"] for m in methods.get("data") or []]
    check("GET /api/Operator/list: the backend's own methods", code == 200 and "click_point" in names
          and "click" not in names, f"{len(names)} methods")
    code, help_ = get("/api/Operator/help/click_point")
    check("GET /api/Operator/help/click_point", code == 200 and "x" in help_["data"]["parameters"]["properties"])
    code, call = post("/api/Operator/call", {"method": "click_point", "params": {"x": 0.5, "y": 0.5}})
    check("POST /api/Operator/call fails cleanly with the backend's message", code == 500
          and call["success"] is False and "Operator" in call["message"], call.get("message"))
    code, launch = post("/api/Operator/call", {"method": "launch", "params": {"channel": 0, "path": "/bin/true"}})
    check("launch is not relayed without an access token", code == 403, launch.get("message"))
    code, shot = api.call("GET", "/api/Operator/screenshot")
    check("GET /api/Operator/screenshot: a 500 envelope, not a hang", code == 500, shot.get("message"))

    code, logs = get("/api/Backend/logs?count=400")
    lines = logs["data"]
    check("GET /api/Backend/logs holds the backend's [Start] and [Done]",
          any(l.endswith("| DEBUG | [Start]") for l in lines) and any(l.endswith("| DEBUG | [Done]") for l in lines))
    check("no configuration file was missing (one store)",
          not any("找不到文件" in l for l in lines), next((l for l in lines if "找不到文件" in l), ""))
    time.sleep(0.5)
    check("the log stream delivered the same lines, one event each",
          len(events) >= 10 and any("当前配置：Nothing" in e for e in events), f"{len(events)} events")

    code, restarted = post("/api/Backend/restart", {"arguments": "--inline --no-admin"})
    check("POST /api/Backend/restart", code == 200 and restarted["data"]["session"] >= 2, json.dumps(restarted)[:200])
    code, status = get("/api/Task/status")
    check("a new backend process answers after the restart", code == 200 and status["data"]["pid"] not in (0, pid),
          f"pid {pid} -> {status['data']['pid']}")
    print(f"{passed} passed, 0 failed")


if __name__ == "__main__":
    if sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    drive(sys.argv[2], sys.argv[3], sys.argv[4])
