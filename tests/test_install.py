"""The Pi's service and installer, checked here as far as a machine without a Pi can."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "companion.service"
INSTALLER = ROOT / "scripts" / "install-pi.sh"


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(UNIT)
    return parser


def test_the_service_restarts_is_watched_and_runs_unprivileged() -> None:
    service = unit()["Service"]
    assert service["Type"] == "notify"
    assert service["Restart"] == "on-failure"
    assert int(service["WatchdogSec"]) >= 5
    assert service["User"] == "companion"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "i2c", "video"}
    assert service["KillSignal"] == "SIGTERM"
    assert service["ExecStart"].split()[1] == "run"
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_accepts_the_unit() -> None:
    result = subprocess.run(
        ["systemd-analyze", "verify", str(UNIT)], capture_output=True, text=True, check=False
    )
    problems = [
        line
        for line in (result.stdout + result.stderr).splitlines()
        if line.strip() and "is not executable" not in line  # installed on the Pi only
    ]
    assert not problems


def test_the_installer_is_valid_bash() -> None:
    subprocess.run(["bash", "-n", str(INSTALLER)], check=True)


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="no shellcheck")
def test_shellcheck_finds_nothing_in_the_installer() -> None:
    subprocess.run(["shellcheck", str(INSTALLER)], check=True)


def test_the_installer_installs_what_the_unit_runs() -> None:
    script = INSTALLER.read_text()
    executable = unit()["Service"]["ExecStart"].split()[0]
    assert executable.startswith("/opt/companion/venv/")
    assert 'venv="$prefix/venv"' in script and "prefix=/opt/companion" in script
    assert "--system-site-packages" in script and "--no-deps" in script
