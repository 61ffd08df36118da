"""deploy/saessak.service: a unit systemd accepts (systemd-analyze verify, with ExecStart pointed at the built
binary), that keeps restarting, runs as its own user, and whose offline security exposure stays low."""
import re
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
