"""The footer of keys, rebuilt only when the keys it shows change.

Textual's Footer throws its keys away and mounts them again (about fifteen widgets, each
styled) whenever a screen says its bindings may have changed: on every focus change,
screen switch and re-dim, often a few times for one key press. Here a request that comes
while one waits is dropped; the keys shown are compared first; a change of which keys are
dimmed only re-dims them; the keys are built again only when what they say changes.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

# (key, key as shown, description, action, group, enabled, tooltip) for each key shown
Shown = tuple[tuple[object, ...], ...]


class KeysFooter(Footer):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._shown: Shown | None = None
        self._queued = False

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus or self._queued:
            return
        if self.is_attached and screen is self.screen:
            self._queued = True
            self.call_after_refresh(self._update_keys)

    def _keys_now(self) -> Shown:
        return tuple((binding.key, self.app.get_key_display(binding), binding.description, binding.action,
                      binding.group, enabled, tooltip)
                     for _, binding, enabled, tooltip in self.screen.active_bindings.values() if binding.show)

    async def _update_keys(self) -> None:
        self._queued = False
        if not self.is_attached:
            return
        now = self._keys_now()
        if now == self._shown:
            return
        before, self._shown = self._shown, now
        if before is not None and _without_dimming(before) == _without_dimming(now):
            self._redim(now)
        else:
            await self.recompose()

    def _redim(self, now: Shown) -> None:
        """The same keys, some dimmed or lit: as Footer.compose marks them, in place."""
        enabled = {action: on for _, _, _, action, _, on, _ in reversed(now)}  # (an action's first binding)
        for key in self.query(FooterKey):
            if key.action in enabled:
                key._disabled = not enabled[key.action]  # (what a click on the key checks)
                key.set_class(key._disabled, "-disabled")


def _without_dimming(shown: Shown) -> Shown:
    return tuple(key[:5] + key[6:] for key in shown)
