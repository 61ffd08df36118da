"""Issue 38: the Debian package, installed as a person would. A minimal Debian bookworm made by debootstrap (kept in
.build/package-test/ between local runs); `apt-get install ./saessak_….deb` inside it resolves every dependency from
Debian alone; the program runs there as the `saessak` user with the unit's own ExecStart line and its options file,
answers /healthz, the setup page and uploads of a real JPEG and HEIC; `saessak doctor` passes there and names each
thing broken (ffmpeg gone, the data folder world-readable); a higher version installed over it keeps the data, the
secret key and the owner's options; purge says what it leaves. lintian reports no errors; systemd-analyze verify
accepts the unit. Root only (chroot); `make test` runs it after the SQLite pass (-m package).

The package is built by the script `make package` runs on the release build, from the same sources compiled for
debugging with the Swift runtime linked in (`make test` builds it in .build/static; SAESSAK_PACKAGE_BIN names
another)."""
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from browser import Browser
from conftest import ROOT, Server, free_port
from images import image_bytes, multipart

pytestmark = [pytest.mark.package,
              pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("debootstrap"), reason="needs root and debootstrap")]

MIRROR = os.environ.get("SAESSAK_DEBIAN_MIRROR", "http://deb.debian.org/debian")
CACHE = ROOT / ".build" / "package-test"
PROGRAM = os.environ.get("SAESSAK_PACKAGE_BIN", str(ROOT / ".build" / "static" / "debug" / "saessak"))
PASSWORD = "a long password for the package"


def sh(*args, check=True, **kw):
    result = subprocess.run(args, capture_output=True, text=True, **kw)
    if check:
        assert result.returncode == 0, (args, result.stdout[-3000:], result.stderr[-3000:])
    return result


def bookworm():
    """A minimal bookworm (debootstrap --variant=minbase), made once and kept as a tarball."""
    tarball = CACHE / "bookworm-minbase.tar"
    if not tarball.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        folder = CACHE / "bookworm"
        shutil.rmtree(folder, ignore_errors=True)
        sh("debootstrap", "--variant=minbase", "bookworm", str(folder), MIRROR, timeout=1200)
        sh("tar", "-C", str(folder), "-cf", str(tarball) + ".part", ".")
        os.rename(str(tarball) + ".part", tarball)
        shutil.rmtree(folder)
    return tarball


class Chroot:
    """The unpacked system, with /proc, /dev and /sys from the host, and the host's name servers."""

    def __init__(self, folder):
        self.root = folder
        folder.mkdir()
        sh("tar", "-C", str(folder), "-xf", str(bookworm()))
        for mount in ("proc", "sys", "dev"):
            sh("mount", "--bind", f"/{mount}", str(folder / mount))
        # The packages apt fetches are kept between local runs too (ffmpeg, libvips and the CJK fonts are most of it).
        archives = CACHE / "archives"
        (archives / "partial").mkdir(parents=True, exist_ok=True)
        sh("mount", "--bind", str(archives), str(folder / "var" / "cache" / "apt" / "archives"))
        shutil.copy("/etc/resolv.conf", folder / "etc" / "resolv.conf")
        (folder / "etc" / "apt" / "sources.list").write_text(f"deb {MIRROR} bookworm main\n")

    def run(self, command, check=True, user=None, timeout=600):
        """`command` (a shell line) inside, as root or as `user`."""
        line = ["chroot", str(self.root)] + (["runuser", "-u", user, "--"] if user else []) + ["sh", "-c", command]
        return sh(*line, check=check, timeout=timeout, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"})

    def close(self):
        for mount in ("var/cache/apt/archives", "dev", "sys", "proc"):
            subprocess.run(["umount", "-l", str(self.root / mount)], capture_output=True)


class PackagedServer(Server):
    """The installed Saessak, started inside the chroot as the service starts it: its user, its options file, the
    unit's ExecStart line."""

    def __init__(self, system):
        super().__init__(system.root / "var" / "lib" / "saessak")
        self.system = system

    def start(self):
        unit = (self.system.root / "lib" / "systemd" / "system" / "saessak.service").read_text()
        exec_start = re.search(r"^ExecStart=(.+)$", unit, re.M).group(1)
        self.log = open(self.system.root.parent / f"packaged-{self.port}.log", "ab")
        self.process = subprocess.Popen(
            ["chroot", str(self.system.root), "runuser", "-u", "saessak", "--", "sh", "-c",
             f"set -a && . /etc/default/saessak && set +a && exec {exec_start}"],
            stdout=self.log, stderr=self.log, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"})
        return self.answering(60)


def build_package(out, version=None):
    assert Path(PROGRAM).exists(), f"{PROGRAM} is missing: make blackbox-test MODULE=test_package builds it"
    args = [str(ROOT / "scripts" / "build-deb.sh"), PROGRAM, str(out)] + ([version] if version else [])
    # The fastest compression: the test installs what it builds, and twice (the real package: make package).
    deb = sh(*args, env=os.environ | {"SAESSAK_DEB_COMPRESSION": "1"}, timeout=900).stdout.strip().splitlines()[-1]
    return Path(deb)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    base = tmp_path_factory.mktemp("package")
    first = build_package(base / "debs")
    system = Chroot(base / "root")
    try:
        shutil.copy(first, system.root / "tmp" / first.name)
        system.run("apt-get update -q", timeout=900)
        install = system.run(f"DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/{first.name}",
                             timeout=1800)
        system.install_output = install.stdout + install.stderr
        system.first = first
        system.base = base
        yield system
    finally:
        system.close()


def test_apt_installs_it_on_bare_bookworm_with_user_folder_unit_and_options(installed):
    output = installed.install_output
    assert "Setting up saessak" in output and "ok    images" in output and "ok    video" in output, output[-3000:]
    # The user and the data folder (0700, the user's).
    assert installed.run("getent passwd saessak").stdout.startswith("saessak:")
    mode = installed.run("stat -c '%a %U' /var/lib/saessak").stdout.split()
    assert mode == ["700", "saessak"]
    # Enabled for the next boot (deb-systemd-helper), options as a conffile, resources and version.
    assert (installed.root / "etc/systemd/system/multi-user.target.wants/saessak.service").is_symlink()
    assert "/etc/default/saessak" in installed.run("cat /var/lib/dpkg/info/saessak.conffiles").stdout
    version = installed.run("saessak --version").stdout
    assert re.fullmatch(r"saessak \d+\.\d+\.\d+ \(commit [0-9a-f]{12}\)\n", version), version
    # Nothing of the Swift toolchain is needed: every library resolves inside the bare system.
    assert "not found" not in installed.run("ldd /usr/bin/saessak").stdout
    # The setup link is a credential: apt's log never has it, only the command that shows it (issue 66).
    assert "admin setup-link" in output and "/setup?token=" not in output
    # The options may hold a secret: root's and the service's alone.
    assert installed.run("stat -c '%a %U %G' /etc/default/saessak").stdout.split() == ["640", "root", "saessak"]


def test_every_serve_option_is_in_the_options_file(installed):
    options = (installed.root / "etc/default/saessak").read_text()
    help_text = installed.run("saessak serve --help").stdout
    for option in sorted(set(re.findall(r"(--[a-z][a-z-]+)", help_text)) - {"--help", "--data", "--version"}):
        assert f"#   {option}" in options or f'"{option}' in options or f" {option} " in options, f"{option} is not in /etc/default/saessak"


def test_it_runs_as_the_service_would_and_serves_photos(installed, tmp_path):
    port = free_port()
    installed.run(f"sed -i 's/^SAESSAK_OPTIONS=.*/SAESSAK_OPTIONS=\"--host 127.0.0.1 --port {port}\"/' /etc/default/saessak")
    server = PackagedServer(installed)
    server.port, server.base = port, f"http://127.0.0.1:{port}"
    server.start()
    try:
        link = installed.run("saessak admin setup-link --data /var/lib/saessak", user="saessak").stdout.strip()
        assert link.startswith(f"http://localhost:{port}/setup?token=")
        browser = Browser(server)
        page = browser.request("GET", link[len(f"http://localhost:{port}"):])
        assert page.status == 200
        token = re.search(r'name="token" value="([^"]+)"', page.text).group(1)
        csrf = re.search(r'name="_csrf" value="([^"]+)"', page.text).group(1)
        made = browser.request("POST", "/setup", form={"_csrf": csrf, "token": token, "username": "mom", "password": PASSWORD,
                                                       "family": "우리집"})
        assert made.status == 303
        assert installed.run("saessak admin setup-link --data /var/lib/saessak", user="saessak", check=False).returncode != 0
        settings = browser.request("GET", "/settings")
        assert re.search(r"새싹 Saessak \d+\.\d+\.\d+ \(commit [0-9a-f]{12}\)", settings.text)
        api = installed.run("saessak admin create-token --username mom --data /var/lib/saessak", user="saessak").stdout.strip()
        for suffix in (".jpg", ".heic"):
            content_type, body = multipart([(f"photo{suffix}", image_bytes(tmp_path, suffix, 640, 480))])
            uploaded = server.request("POST", "/api/v1/photos", raw=body, token=api, headers={"Content-Type": content_type})
            assert uploaded.status == 201, (suffix, uploaded.body[:300])
            photo = uploaded.json()["items"][0]["id"]
            deadline = time.time() + 60
            while server.request("GET", f"/api/v1/photos/{photo}/thumbnail?size=small", token=api).status != 200:
                assert time.time() < deadline, f"no thumbnail of the {suffix} photo"
                time.sleep(0.2)
        # The doctor, as the service runs, passes; each thing broken is named, with its fix.
        doctor = "set -a; . /etc/default/saessak; set +a; saessak doctor --data /var/lib/saessak $SAESSAK_OPTIONS"
        passed = installed.run(doctor, user="saessak", check=False)
        assert passed.returncode == 0 and "FAIL" not in passed.stdout, passed.stdout
        for breaking, mending, named in (
                ("mv /usr/bin/ffmpeg /usr/bin/ffmpeg.away", "mv /usr/bin/ffmpeg.away /usr/bin/ffmpeg", r"^FAIL  video .*apt install ffmpeg"),
                ("chmod 755 /var/lib/saessak", "chmod 700 /var/lib/saessak", r"^FAIL  data folder .*chmod 700")):
            installed.run(breaking)
            try:
                broken = installed.run(doctor, user="saessak", check=False)
                assert broken.returncode == 1 and re.search(named, broken.stdout, re.M), broken.stdout
            finally:
                installed.run(mending)
    finally:
        server.stop()
    installed.port = port


def test_lintian_finds_no_errors_and_systemd_accepts_the_unit(installed, tmp_path):
    lintian = sh("lintian", "--fail-on", "error", str(installed.first), check=False, timeout=900)
    assert lintian.returncode == 0 and not re.search(r"^E: ", lintian.stdout, re.M), lintian.stdout[-3000:]
    # The installed unit, checked by the host's systemd (the bare system has none) with ExecStart at the installed program.
    installed_unit = (installed.root / "lib/systemd/system/saessak.service").read_text()
    unit = tmp_path / "saessak.service"
    unit.write_text(installed_unit.replace("/usr/bin/saessak", str(installed.root / "usr/bin/saessak")))
    verify = sh("systemd-analyze", "verify", str(unit), check=False)
    assert verify.returncode == 0 and not verify.stderr.strip(), verify.stderr


def test_an_upgrade_keeps_the_data_key_and_options_and_purge_says_what_it_leaves(installed):
    key = (installed.root / "var/lib/saessak/secret.key").read_bytes()
    options = (installed.root / "etc/default/saessak").read_text()
    major, minor, patch = installed.run("saessak --version").stdout.split()[1].split(".")
    newer = build_package(installed.base / "newer", f"{major}.{minor}.{int(patch) + 1}")
    shutil.copy(newer, installed.root / "tmp" / newer.name)
    upgrade = installed.run(f"DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/{newer.name}", timeout=900)
    assert f"Unpacking saessak ({major}.{minor}.{int(patch) + 1})" in upgrade.stdout, upgrade.stdout[-2000:]
    assert installed.run("saessak --version").stdout.split()[1] == f"{major}.{minor}.{int(patch) + 1}"
    assert (installed.root / "var/lib/saessak/secret.key").read_bytes() == key
    assert (installed.root / "etc/default/saessak").read_text() == options
    server = PackagedServer(installed)
    server.port = getattr(installed, "port", free_port())
    server.base = f"http://127.0.0.1:{server.port}"
    server.start()
    try:
        browser = Browser(server)
        assert browser.sign_in("mom", PASSWORD).status == 303
        assert "우리집" in browser.request("GET", "/").text
    finally:
        server.stop()
    purge = installed.run("DEBIAN_FRONTEND=noninteractive apt-get purge -y -q saessak", timeout=600)
    assert "Left in place: the diary in /var/lib/saessak" in purge.stdout, purge.stdout[-2000:]
    assert (installed.root / "var/lib/saessak/saessak.sqlite").exists()
    assert not (installed.root / "usr/bin/saessak").exists()
