#!/usr/bin/env python3
"""Harness for single-source (.asc) Ascend C programs built the way a user of
the current devkit builds them: a CMake project with find_package(ASC) and
project(... LANGUAGES ASC CXX), configured and built against a CANN install
(the staged simnpu install) in a clean environment made only of the
install's set_env.sh, then run.

  asc_project.py build <install> <project src> <build dir> [<generator> [-D...]...]
      configure (in place: later runs are incremental) and build
  asc_project.py run <install> <project src> <build dir> <program> [<case>]
      run one program and check its results:
        1. if <project src>/<program>.py exists, `python3 <program>.py gen <work> [<case>]`
           writes the inputs (and the numpy golden data) into the work folder
        2. <build dir>/<program> [<case>] runs with the work folder as its
           current directory (stdout and stderr are saved to stdout.txt and
           stderr.txt there, and shown); it must exit 0
        3. `python3 <program>.py check <work> [<case>]` compares the outputs
           with the golden data (numpy) and exits non-zero on a mismatch
      The work folder is <build dir>/run/<program>[.<case>], emptied first.

A program's .py file is optional (a program may check itself). Its check
step can read stdout.txt/stderr.txt, e.g. to check device printf output.

Environment of the programs: PATH, HOME, LANG=C, then set_env.sh; nothing
else of the caller's environment leaks in (SIMNPU_* and ASCEND_* variables
of the caller are not passed).
"""

import os
import shutil
import subprocess
import sys


def clean_env(install):
    path = ["/usr/local/bin", "/usr/bin", "/bin"]
    for tool in ("cmake", "g++", "c++", "ninja", "python3", "make"):
        p = shutil.which(tool)
        if p and os.path.dirname(p) not in path:
            path.append(os.path.dirname(p))
    base = {"PATH": ":".join(path), "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C"}
    set_env = os.path.join(install, "set_env.sh")
    p = subprocess.run(["bash", "-c", 'source "$1" >/dev/null && env -0', "bash", set_env], env=base,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.stderr.write("sourcing %s failed:\n%s" % (set_env, p.stderr.decode(errors="replace")))
        sys.exit(1)
    env = {}
    for item in p.stdout.split(b"\0"):
        if b"=" in item:
            k, v = item.split(b"=", 1)
            env[k.decode()] = v.decode()
    return env


def numpy_python():
    """An interpreter with numpy for the gen/check scripts: this one, else
    Debian's /usr/bin/python3 (the python3 first on PATH may be another
    installation without it), else whatever python3 is on PATH."""
    cands = [sys.executable, "/usr/bin/python3", shutil.which("python3")]
    for c in cands:
        if c and subprocess.call([c, "-c", "import numpy"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL) == 0:
            return c
    return sys.executable


def build(install, src, bdir, generator="Ninja", *defs):
    env = clean_env(install)
    os.makedirs(bdir, exist_ok=True)
    cmd = ["cmake", "-S", src, "-B", bdir, "-G", generator] + list(defs)
    print("+ " + " ".join(cmd), flush=True)
    if subprocess.call(cmd, env=env) != 0:
        return 1
    cmd = ["cmake", "--build", bdir, "-j2"]
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.call(cmd, env=env)


def run(install, src, bdir, program, case=None):
    exe = os.path.join(bdir, program)
    if not os.access(exe, os.X_OK):
        sys.stderr.write("%s was not built (did the project's build test fail?)\n" % exe)
        return 1
    env = clean_env(install)
    work = os.path.join(bdir, "run", program + ("." + case if case else ""))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    script = os.path.join(src, program + ".py")
    extra = [case] if case else []
    py = numpy_python()
    if os.path.isfile(script):
        rc = subprocess.call([py, script, "gen", work] + extra, env=env)
        if rc != 0:
            sys.stderr.write("%s gen failed (%d)\n" % (script, rc))
            return 1
    p = subprocess.run([exe] + extra, cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.decode(errors="replace")
    err = p.stderr.decode(errors="replace")
    with open(os.path.join(work, "stdout.txt"), "w") as f:
        f.write(out)
    with open(os.path.join(work, "stderr.txt"), "w") as f:
        f.write(err)
    sys.stdout.write(out)
    sys.stderr.write(err)
    if p.returncode != 0:
        sys.stderr.write("%s exited with %d\n" % (program, p.returncode))
        return 1
    if os.path.isfile(script):
        rc = subprocess.call([py, script, "check", work] + extra, env=env)
        if rc != 0:
            sys.stderr.write("%s check failed (%d)\n" % (script, rc))
            return 1
    return 0


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    mode = argv[0]
    if mode == "build" and len(argv) >= 4:
        return build(*argv[1:])
    if mode == "run" and len(argv) in (5, 6):
        return run(*argv[1:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
