"""How editors and git save a data file, and how long `serve` takes to serve
each save: the measurement behind `benches/save-bench.sh`.

Each pattern is a function `save(path, text)` that puts `text` in `path` the
way one kind of writer does it, syscall for syscall:

- `same`: the same file written again in place (open, truncate, write,
  close), as a plain `open(..., "w")` or VS Code does.
- `other`: in place too, but each save is the first save of another game.
- `rename`: the safe write of many tools: a hidden temporary file beside the
  file, written, then renamed over it (`os.replace`).
- `vim`: Vim 9's default save (`backupcopy=auto`, `writebackup`), as strace
  shows it: the `4913` probe (created exclusively, closed, removed), the
  file renamed to `file~`, a new file created and written, fsynced and
  closed, then `file~` removed.
- `jetbrains`: IntelliJ's safe write: `file___jb_tmp___` written, the file
  renamed to `file___jb_old___`, the temporary renamed to the file, the old
  one removed.

Every pattern but `same` saves a game it has not saved before (the first
save of that game in the server's life, the dearer case: its other locales
are read too).
"""
import os
import time
import urllib.request


def write_in_place(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def write_by_rename(path, text):
    folder, name = os.path.split(path)
    tmp = os.path.join(folder, f".{name}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def write_like_vim(path, text):
    folder, name = os.path.split(path)
    probe = os.path.join(folder, "4913")
    fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    os.close(fd)
    os.unlink(probe)
    backup = path + "~"
    os.rename(path, backup)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    os.write(fd, text.encode("utf-8"))
    os.fsync(fd)
    os.close(fd)
    os.unlink(backup)


def write_like_jetbrains(path, text):
    tmp, old = path + "___jb_tmp___", path + "___jb_old___"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.rename(path, old)
    os.rename(tmp, path)
    os.unlink(old)


PATTERNS = {
    "same": write_in_place,
    "other": write_in_place,
    "rename": write_by_rename,
    "vim": write_like_vim,
    "jetbrains": write_like_jetbrains,
}


def served(url, marker, start, limit=60):
    """Polls `url` every 5 ms until its body holds `marker`; the ms since `start`."""
    while True:
        try:
            with urllib.request.urlopen(url, timeout=30) as response:
                if marker in response.read().decode():
                    return (time.monotonic() - start) * 1000
        except OSError:
            pass
        if time.monotonic() - start > limit:
            raise SystemExit(f"{url} did not serve {marker} within {limit} s")
        time.sleep(0.005)
