#!/usr/bin/env bash
# Install the companion on Raspberry Pi OS Bookworm, from a checkout of this repository:
#   sudo scripts/install-pi.sh
# System packages for the camera, OpenCV, GPIO and I2C from apt; a virtual environment
# that sees them (--system-site-packages) with luma pip-installed at the tested pins; an
# unprivileged user in the gpio, i2c and video groups; the configuration; the service.
set -euo pipefail

source_dir=$(cd "$(dirname "$0")/.." && pwd)
prefix=/opt/companion
venv="$prefix/venv"
config_dir=/etc/companion
user=companion

if [ "$(id -u)" -ne 0 ]; then
    echo "Run as root: sudo $0" >&2
    exit 2
fi
if ! grep -q 'VERSION_CODENAME=bookworm' /etc/os-release 2>/dev/null; then
    echo "This installer is written for Raspberry Pi OS Bookworm; continuing anyway." >&2
fi

apt-get update
apt-get install -y --no-install-recommends \
    python3 python3-venv python3-pip \
    python3-picamera2 python3-opencv python3-numpy python3-pil \
    python3-gpiozero python3-lgpio python3-smbus2 i2c-tools

# I2C for the display (raspi-config's non-interactive switch: 0 means enable).
if command -v raspi-config >/dev/null 2>&1; then
    raspi-config nonint do_i2c 0
fi

id -u "$user" >/dev/null 2>&1 || useradd --system --home-dir /var/lib/companion \
    --shell /usr/sbin/nologin "$user"
usermod -a -G gpio,i2c,video "$user"

install -d -m 755 "$prefix"
rm -rf "$prefix/src"
cp -r "$source_dir" "$prefix/src"
rm -rf "$prefix/src/.venv" "$prefix/src/.venv-bookworm"
python3 -m venv --system-site-packages "$venv"
# luma is not packaged for Bookworm: the pins of requirements/bookworm.txt. luma.core
# declares RPi.GPIO, spidev and pyftdi for its SPI and FTDI interfaces, which the I2C OLED
# never imports (pip would try to build them from source): luma without its declared
# dependencies; smbus2 comes from apt above, cbor2 (luma's bitmap fonts) from pip.
"$venv/bin/pip" install --quiet --no-deps \
    "$(grep '^luma.core==' "$prefix/src/requirements/bookworm.txt")" \
    "$(grep '^luma.oled==' "$prefix/src/requirements/bookworm.txt")"
"$venv/bin/python" -c "import cbor2" 2>/dev/null || "$venv/bin/pip" install --quiet cbor2
# The project itself, without letting pip replace apt's numpy, OpenCV, Pillow or gpiozero.
"$venv/bin/pip" install --quiet --no-deps "$prefix/src"
ln -sfn "$prefix/src/docs" "$prefix/docs"

install -d -m 755 "$config_dir"
if [ ! -f "$config_dir/config.toml" ]; then
    "$venv/bin/python" -c 'from companion.device.config import example; print(example(), end="")' \
        >"$config_dir/config.toml"
fi
# Check the configuration now rather than at the first boot.
"$venv/bin/python" -c 'from pathlib import Path; from companion.device.config import load; load(Path("/etc/companion/config.toml"))'

# "Shut down" in the settings menu: only this command, only for this user.
echo "$user ALL=(root) NOPASSWD: /usr/bin/systemctl poweroff" >/etc/sudoers.d/companion
chmod 440 /etc/sudoers.d/companion
visudo -cf /etc/sudoers.d/companion

install -m 644 "$prefix/src/systemd/companion.service" /etc/systemd/system/companion.service
systemctl daemon-reload
systemctl enable --now companion.service
echo "Installed. Logs: journalctl -u companion -f"
