"""deploy/saessak.service: a unit systemd accepts (systemd-analyze verify, with ExecStart pointed at the built
binary), that keeps restarting, runs as its own user, and whose offline security exposure stays low."""
import os
import re
import shutil
import subprocess
from pathlib import Path

from conftest import BIN, ROOT

UNIT = ROOT / "deploy" / "saessak.service"


def test_the_systemd_unit_is_valid_and_hardened(tmp_path):
    text = UNIT.read_text()
    assert re.search(r"^Restart=always$", text, re.M) and re.search(r"^User=saessak$", text, re.M)
    assert re.search(r"^ExecStart=/usr/bin/saessak serve --data /var/lib/saessak \$SAESSAK_OPTIONS$", text, re.M)
    assert re.search(r"^EnvironmentFile=-/etc/default/saessak$", text, re.M)
    # The same unit with the binary this test run built: systemd must accept every line.
    unit = tmp_path / "saessak.service"
    unit.write_text(text.replace("/usr/bin/saessak", str(Path(BIN).resolve())))
    verify = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    assert verify.returncode == 0 and not verify.stderr.strip(), verify.stderr
    security = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(unit)], capture_output=True, text=True)
    exposure = float(re.search(r"Overall exposure level for \S+: ([0-9.]+)", security.stdout).group(1))
    assert exposure <= 2.0, security.stdout[-3000:]


def test_a_program_without_its_resources_says_so_at_start_and_finds_them_where_told(tmp_path):
    """The package puts the resource folders in /usr/share/saessak; a program copied away from them stops at once with
    a message naming them, never with a fatal error in a request. SAESSAK_RESOURCES points at them."""
    alone = tmp_path / "bin" / "saessak"
    alone.parent.mkdir()
    shutil.copy(BIN, alone)
    data = tmp_path / "saessak-data"
    environment = {"PATH": os.environ["PATH"]}
    started = subprocess.run([str(alone), "serve", "--data", str(data), "--port", "0"], capture_output=True, text=True,
                             timeout=60, env=environment)
    assert started.returncode != 0 and "saessak_WebApp.resources" in started.stderr and "SAESSAK_RESOURCES" in started.stderr
    doctor = subprocess.run([str(alone), "doctor", "--data", str(data)], capture_output=True, text=True, timeout=60, env=environment)
    assert doctor.returncode == 1 and re.search(r"^FAIL  resources ", doctor.stdout, re.M), doctor.stdout
    found = subprocess.run([str(alone), "doctor", "--data", str(data)], capture_output=True, text=True, timeout=60,
                           env=environment | {"SAESSAK_RESOURCES": str(Path(BIN).resolve().parent)})
    assert re.search(r"^ok    resources ", found.stdout, re.M), found.stdout
    assert re.fullmatch(r"saessak \d+\.\d+\.\d+ \(built from source\)\n",
                        subprocess.run([str(alone), "--version"], capture_output=True, text=True, env=environment).stdout)


def test_the_program_allocates_with_jemalloc():
    """The server's memory comes from jemalloc, not glibc's malloc (docs/performance.md, "The allocator"): linked
    before libc, so the dynamic linker binds every library's `malloc` to it — the Swift runtime's, SQLite's and libvips'."""
    bound = subprocess.run([BIN, "--help"], capture_output=True, text=True, timeout=60,
                           env={"PATH": os.environ["PATH"], "LD_DEBUG": "bindings"})
    bindings = re.findall(r"binding file (\S+) \[\d+\] to (\S+) \[\d+\]: normal symbol `(malloc|free)'", bound.stderr)
    assert bindings, bound.stderr[-2000:]
    assert all("libjemalloc.so" in target for _, target, _ in bindings), sorted({target for _, target, _ in bindings})
