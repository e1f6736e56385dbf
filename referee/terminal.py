"""Text bound for a terminal, with its control characters made visible.

Player names, file names and notes come from records anyone can write; printed raw, an
``ESC ]0;…BEL`` retitles the window and ``ESC [2J`` clears the screen (worse sequences
exist). Every command-line printer passes its text through `for_terminal` (or a JSON
line through `json_for_terminal`), so what a record says is shown, never obeyed.

>>> for_terminal("Anna\\x1b]0;pwned\\x07 and\\x9b2J Bob")
'Anna\\\\x1b]0;pwned\\\\x07 and\\\\x9b2J Bob'
>>> for_terminal("two\\nlines\\tand a tab")
'two\\nlines\\tand a tab'
>>> json_for_terminal({"name": "A\\x1b[2J\\x9b"})
'{"name": "A\\\\u001b[2J\\\\u009b"}'
"""

from __future__ import annotations

import json
import re
from typing import Any

#: C0 controls but newline and tab (the printers' own layout), DEL, and C1 controls
#: (U+0080–U+009F: ``\x9b`` is a CSI on its own in many terminals).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")

#: The same in JSON text, where C0 is escaped already: only DEL and C1 get through.
_JSON_CONTROL = re.compile("[\x7f-\x9f]")


def for_terminal(text: str) -> str:
    """``text`` with each control character written as ``\\xNN`` (newline and tab
    kept: the printers lay out lines with them)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def json_for_terminal(data: Any) -> str:
    """One JSON line of ``data`` (non-ASCII kept readable) that is safe to print and
    still decodes to ``data``: DEL and C1 become ``\\u00NN`` escapes."""
    text = json.dumps(data, ensure_ascii=False)
    return _JSON_CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def say(text: str = "", **kwargs: Any) -> None:
    """`print` for the command line: the same arguments, the text made safe."""
    print(for_terminal(text), **kwargs)


__all__ = ["for_terminal", "json_for_terminal", "say"]
