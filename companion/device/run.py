"""``companion run``: the device, on a Pi or emulated in a terminal.

On the Pi (display driver ssd1306 or sh1106 in the configuration) the OLED and the GPIO
buttons are used; anywhere else the screen is drawn in the terminal (or written as PNG
files) and the keyboard stands in for the buttons. SIGTERM ends the loop cleanly: the
game is already saved and the screen says it is safe to unplug.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from companion.device import config as device_config
from companion.device.app import App, DeviceInfo
from companion.device.camerajobs import CameraJobs
from companion.device.camerathrows import CameraSetupError, CameraThrows, settings_for
from companion.device.events import CameraFailed, Effect, Stop
from companion.device.loop import EventLoop, contrast_effect
from companion.device.screens import AwaitThrow
from companion.device.state import Settings, StateStore, development_state_dir
from companion.errors import NotationError
from companion.reading import kit_for
from hardware.display import DRIVERS, ImageFiles, TerminalDisplay, open_oled

if TYPE_CHECKING:
    from hardware.buttons import Beeper

KEYS: dict[str, tuple[str, bool]] = {
    "w": ("up", False),
    "k": ("up", False),
    "\x1b[A": ("up", False),
    "s": ("down", False),
    "j": ("down", False),
    "\x1b[B": ("down", False),
    "\r": ("select", False),
    "\n": ("select", False),
    " ": ("select", False),
    "h": ("up", True),  # hold up: hints; in the editor, insert a character
    "x": ("down", True),  # hold down: in the editor, delete a character
    "?": ("select", True),
    "y": ("select", True),
    "b": ("back", False),
    "\x7f": ("back", False),
    "m": ("back", True),
}
ENROLLED_PROFILE = "sticks.json"  # in the state folder, unless camera.profile names a file
KEY_HELP = (
    "keys: w/s or arrows = up/down, Enter = select, ? = hold select (why), "
    "h = hold up (hints), x = hold down, b = back, m = hold back (menu), q = quit"
)


@dataclass(frozen=True)
class RunOptions:
    config_path: Path | None = None
    screen: str = "auto"  # auto (from the configuration), terminal, or a folder for PNGs
    state_dir: Path | None = None
    dev_mode: bool = False
    source: str | None = None  # frames for the camera path: a folder, a video, a camera


def run_device(options: RunOptions) -> int:
    config = device_config.load(options.config_path)
    on_pi = options.screen == "auto" and config.display_driver in DRIVERS
    state_dir = options.state_dir or (config.state_dir if on_pi else development_state_dir())
    store = StateStore(state_dir)
    defaults = Settings(game=config.rules, lang=config.language, dev_mode=options.dev_mode)
    settings = store.load_settings(defaults)
    if options.dev_mode:
        settings = replace(settings, dev_mode=True)
    camera_spec = _camera_spec(options, config, on_pi)
    info = DeviceInfo(
        version=_version(),
        display=config.display_driver if on_pi else "terminal",
        address=_looked_up_every(ADDRESS_FRESH_FOR, _address),
        saver_after=config.saver_after,
        camera=camera_spec is not None,
    )
    app = App(store, settings=settings, info=info)
    loop = _loop(app, _display(options, config, on_pi), on_pi)
    signal.signal(signal.SIGTERM, lambda *_: loop.events.put(Stop("SIGTERM")))
    camera = _camera(camera_spec, config, state_dir, loop)
    try:
        if on_pi:
            return _run_on_pi(loop, config)
        return _run_with_keyboard(loop)
    finally:
        if camera is not None:
            camera.stop()


def _camera_spec(
    options: RunOptions, config: device_config.DeviceConfig, on_pi: bool
) -> str | None:
    """Where frames come from: ``--source``, else the configured camera (the Pi camera by
    default on the Pi; none on a development machine unless configured)."""
    if options.source is not None:
        return options.source
    if not config.camera:
        return None
    return config.camera_source or ("pi" if on_pi else None)


def _camera(
    spec: str | None, config: device_config.DeviceConfig, state_dir: Path, loop: EventLoop
) -> CameraThrows | None:
    """The camera thread, started; a camera that cannot be used is a message on the screen
    (the throws are then entered by hand), never the end of the device."""
    if spec is None:
        return None
    tray = config.camera_tray or state_dir / "tray"
    enrolled = config.camera_profile or state_dir / ENROLLED_PROFILE
    try:
        settings = settings_for(
            spec,
            tray=tray,
            # Configured but not enrolled yet: the shipped profile until enrolment writes it.
            profile=enrolled if enrolled.is_file() else None,
            size=(config.camera_width, config.camera_height),
            still_frames=config.camera_still_frames,
            averaged=config.camera_averaged_frames,
            floor_mm=config.camera_floor_mm,
            camera_height_mm=config.camera_above_tray_mm,
        )
    except CameraSetupError as error:
        loop.events.put(CameraFailed(str(error)))
        return None
    jobs = CameraJobs(
        tray,
        enrolled,
        camera_height_mm=config.camera_above_tray_mm,
        floor_mm=config.camera_floor_mm,
    )
    settings = replace(settings, work=jobs.run)
    app = loop.app
    camera = CameraThrows(
        settings,
        post=loop.events.put,
        kit=lambda: _kit_of(app),
        lang=lambda: app.settings.lang,
        ready=lambda: isinstance(app.screen, AwaitThrow),
    )
    camera.start()
    loop.capture = camera.capture
    return camera


def _kit_of(app: App) -> str | None:
    """The kit of the game being played (read from the camera thread, never changed)."""
    game = app.game
    if game is None:
        return None
    try:
        return kit_for(game.rules)
    except NotationError:
        return None


def _run_on_pi(loop: EventLoop, config: device_config.DeviceConfig) -> int:
    from hardware.buttons import ButtonBoard

    buttons = ButtonBoard(
        config.button_pins,
        report=loop.report_button,
        hold_time=config.hold_time,
        bounce_time=config.bounce_time,
    )
    beeper = open_beeper(config)
    if beeper is not None and loop.on_effect is not None:
        loop.on_effect = beeping(loop.on_effect, beeper)
    try:
        notify("READY=1")
        loop.run(until=_watchdog_heartbeat())
    finally:
        buttons.close()
        if beeper is not None:
            beeper.close()
    return 0


def open_beeper(config: device_config.DeviceConfig, *, pin_factory: Any = None) -> Beeper | None:
    """The buzzer or LED of ``buzzer.pin``, if one is configured. It is only a signal:
    when it cannot be set up the device says so on its error output and goes on without."""
    from hardware.buttons import Beeper, ButtonError

    if config.buzzer_pin is None:
        return None
    try:
        return Beeper(config.buzzer_pin, pin_factory=pin_factory)
    except ButtonError as error:
        sys.stderr.write(f"{error}; going on without it\n")
        return None


def beeping(on_effect: Callable[[Effect], None], beeper: Beeper) -> Callable[[Effect], None]:
    """``on_effect``, and a beep when a throw has been read (``Effect.BEEP``)."""

    def with_beep(effect: Effect) -> None:
        if effect is Effect.BEEP:
            beeper.beep()
        on_effect(effect)

    return with_beep


def _run_with_keyboard(loop: EventLoop) -> int:
    sys.stderr.write(KEY_HELP + "\n")
    reader = threading.Thread(target=read_keys, args=(sys.stdin, loop), daemon=True)
    with _RawTerminal(sys.stdin):
        reader.start()
        loop.run()
    return 0


def read_keys(stream: TextIO, loop: EventLoop) -> None:
    """Keys as button presses until 'q' or the end of the input, then Stop."""
    pending = ""
    while True:
        ch = stream.read(1)
        if not ch or ch == "q":
            loop.events.put(Stop("keyboard"))
            return
        pending += ch
        if any(len(name) > len(pending) and name.startswith(pending) for name in KEYS):
            continue  # the start of an arrow key
        key = KEYS.get(pending)
        pending = ""
        if key is not None:
            loop.report_button(*key)


class _RawTerminal:
    """Single keys without Enter while the device runs in a terminal."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.saved: Any = None

    def __enter__(self) -> None:
        if not self.stream.isatty():
            return
        import termios
        import tty

        self.saved = termios.tcgetattr(self.stream.fileno())
        tty.setcbreak(self.stream.fileno())

    def __exit__(self, *exc: object) -> None:
        if self.saved is not None:
            import termios

            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self.saved)


def _display(options: RunOptions, config: device_config.DeviceConfig, on_pi: bool) -> Any:
    if on_pi:
        return open_oled(
            config.display_driver,
            port=config.i2c_port,
            address=config.i2c_address,
            rotate=config.rotate,
        )
    if options.screen in ("auto", "terminal"):
        return TerminalDisplay()
    return ImageFiles(Path(options.screen))


def _loop(app: App, display: Any, on_pi: bool) -> EventLoop:
    """The event loop on ``display``, at the saved contrast (luma's drivers start at their
    own: 0xCF for the SSD1306, 0x7F for the SH1106)."""
    loop = EventLoop(app, display)
    loop.on_effect = _effects(display, app, on_pi)
    loop.on_effect(Effect.CONTRAST)
    return loop


def _effects(display: Any, app: App, on_pi: bool) -> Callable[[Effect], None]:
    set_contrast = contrast_effect(display, app)

    def on_effect(effect: Effect) -> None:
        set_contrast(effect)
        if effect is Effect.SHUTDOWN and on_pi:
            subprocess.run(["sudo", "-n", "/usr/bin/systemctl", "poweroff"], check=False)

    return on_effect


def notify(message: str) -> None:
    """Tell systemd (Type=notify, WatchdogSec) how we are; nothing without systemd."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return
    if address.startswith("@"):
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(address)
        sock.sendall(message.encode())


def _watchdog_heartbeat() -> Callable[[], bool]:
    """Called on every turn of the loop: pets systemd's watchdog; never stops the loop."""

    def heartbeat() -> bool:
        notify("WATCHDOG=1")
        return False

    return heartbeat


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("companion")
    except PackageNotFoundError:
        return "unknown"


ADDRESS_FRESH_FOR = 30.0  # seconds: the settings menu is drawn at every press


def _looked_up_every(seconds: float, look_up: Callable[[], str]) -> Callable[[], str]:
    """``look_up``, run again only when its last answer is older than ``seconds``."""
    last: list[tuple[float, str]] = []

    def answer() -> str:
        now = time.monotonic()
        if not last or now - last[0][0] > seconds:
            last[:] = [(now, look_up())]
        return last[0][1]

    return answer


def _address() -> str:
    """The machine's addresses on the local network (``hostname -I``)."""
    try:
        result = subprocess.run(
            ["hostname", "-I"], capture_output=True, text=True, timeout=2, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    addresses = result.stdout.split()
    return addresses[0] if addresses else "no network"
