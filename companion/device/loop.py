"""The event loop: one queue, one screen state machine, one display.

Buttons, the camera and the keyboard put events on :attr:`EventLoop.events` from their
own threads; the loop takes them one at a time, lets the :class:`App` move to its next
screen, renders the view when it changed and carries out the effects (beep, contrast,
shut down). When nothing happens for a while it sends a :class:`Tick`. A camera job of
the screens (calibrate, enrol) goes to ``capture``, the camera thread's
:meth:`~companion.device.camerathrows.CameraThrows.capture`.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.device import texts
from companion.device.app import App
from companion.device.events import CameraDone, CameraTask, Effect, Event, Key, Press, Tick
from companion.device.render import render
from companion.device.sphinxturn import ThinkRequest, think
from companion.device.view import View
from hardware.display import Display

TICK_SECONDS = 0.25
KEYS_BY_NAME = {key.value: key for key in Key}


class EventLoop:
    def __init__(
        self,
        app: App,
        display: Display,
        *,
        clock: Callable[[], float] = time.monotonic,
        on_effect: Callable[[Effect], None] | None = None,
        on_view: Callable[[View], None] | None = None,
        capture: Callable[[CameraTask], None] | None = None,
    ) -> None:
        self.app = app
        self.display = display
        self.clock = clock
        # SimpleQueue: put() may be called from the SIGTERM handler while the loop waits in
        # get() (queue.Queue's lock is not reentrant).
        self.events: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self.on_effect = on_effect
        self.on_view = on_view
        self.capture = capture
        self.shown: View | None = None
        self.app.now = clock()
        self.app.last_press = self.app.now

    def report_button(self, name: str, long: bool) -> None:
        """For button and keyboard threads: a press becomes an event on the queue."""
        self.events.put(Press(KEYS_BY_NAME[name], long))

    def show(self) -> None:
        """Render the current view if it differs from the one on the display."""
        view = self.app.view()
        if view != self.shown:
            self.display.display(render(view))
            self.shown = view
            if self.on_view is not None:
                self.on_view(view)

    def step(self, event: Event) -> None:
        self.app.handle(event, self.clock())
        self.show()
        for effect in self.app.take_effects():
            if effect is Effect.THINK:
                self._think(self.app.take_request())
            if effect is Effect.CAMERA:
                self._camera(self.app.take_camera_task())
            if self.on_effect is not None:
                self.on_effect(effect)

    def _think(self, request: ThinkRequest | None) -> None:
        """The Sphinx searches in a worker thread: the buttons keep answering meanwhile,
        and its answer comes back as an event (the thread touches no state)."""
        if request is None:
            return
        worker = threading.Thread(
            target=lambda: self.events.put(think(request)), name="sphinx", daemon=True
        )
        worker.start()

    def _camera(self, task: CameraTask | None) -> None:
        """The camera thread does the job and answers on the queue; without one, no."""
        if task is None:
            return
        if self.capture is None:
            problem = texts.text("no-camera", self.app.lang)
            self.events.put(CameraDone(task.job, task.step, problem=problem))
        else:
            self.capture(task)

    def run_pending(self) -> int:
        """Handle every event already queued, without waiting; returns how many."""
        handled = 0
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return handled
            self.step(event)
            handled += 1

    def run(self, *, until: Callable[[], bool] | None = None) -> None:
        """Handle events until the App has finished (or ``until`` says so)."""
        self.show()
        while not self.app.finished and not (until is not None and until()):
            try:
                event: Event = self.events.get(timeout=TICK_SECONDS)
            except queue.Empty:
                event = Tick()
            self.step(event)


def contrast_effect(device: Any, app: App) -> Callable[[Effect], None]:
    """Effects on a luma device: contrast changes (others are ignored)."""

    def on_effect(effect: Effect) -> None:
        if effect is Effect.CONTRAST and hasattr(device, "contrast"):
            device.contrast(app.settings.contrast)

    return on_effect
