"""The ``carolus`` command line's parser in the operator's language (issue 17).

argparse prints two kinds of words before any command runs: our own (every ``help=`` and
``description=``, marked for the catalogs with ``N_`` or written with ``said`` where a
value goes in) and its own ("usage:", "options:", "show this help message and exit",
"the following arguments are required: …", "invalid float value: …"). Python 3.11's
argparse takes its own from ``gettext.gettext`` at module level, so they would follow
only a process-wide ``textdomain`` and ``.mo`` files on disk; instead `Parser` speaks
through our catalogs at argparse's public points of extension:

- its ``formatter_class``, `Formatter`, says the usage's prefix, the sections' titles,
  the descriptions and every help text in the parser's language (argparse's own help
  of ``-h`` included: its English words are the msgid);
- its ``error`` says the reason again from argparse's English, which it matches to one
  of `_ARGPARSE`'s msgids (the values, option names and metavars go in as they are;
  a type's own `type_error` is kept whole); exit code 2, as argparse's.

The language is known before parsing (`language`): ``--language X`` anywhere in the
command line, else for ``carolus run`` the settings' ``language`` (``--set
language=X``, the ``--config`` file's), else the environment as gettext reads it
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English. In English the
parser prints exactly what argparse prints (the msgids are argparse's words).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from referee.announcements import ENGLISH, N_, Said, clause, said, translated

if TYPE_CHECKING:
    from referee.announcements import Translator

#: Environment variables gettext reads for the language, in its order.
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

#: argparse's own reasons (Python 3.11's words, with named fields), each matched to the
#: msgid that says it in every language; a reason not here is shown as argparse words it.
#: ``clause``: another reason, said again the same way.
_ARGPARSE: tuple[tuple[str, str], ...] = (
    (r"argument (?P<option>.+?): (?P<clause>.*)", N_("argument %(option)s: %(clause)s")),
    (r"unrecognized arguments: (?P<given>.*)", N_("unrecognized arguments: %(given)s")),
    (
        r"the following arguments are required: (?P<options>.*)",
        N_("the following arguments are required: %(options)s"),
    ),
    (
        r"one of the arguments (?P<options>.*) is required",
        N_("one of the arguments %(options)s is required"),
    ),
    (r"not allowed with argument (?P<option>.*)", N_("not allowed with argument %(option)s")),
    (r"ignored explicit argument (?P<given>.*)", N_("ignored explicit argument %(given)s")),
    (r"expected one argument", N_("expected one argument")),
    (r"expected at most one argument", N_("expected at most one argument")),
    (r"expected at least one argument", N_("expected at least one argument")),
    (r"expected (?P<count>1) argument", N_("expected %(count)s argument")),
    (r"expected (?P<count>\d+) arguments", N_("expected %(count)s arguments")),
    (
        r"ambiguous option: (?P<option>.*) could match (?P<matches>.*)",
        N_("ambiguous option: %(option)s could match %(matches)s"),
    ),
    (r"unexpected option string: (?P<option>.*)", N_("unexpected option string: %(option)s")),
    (
        r"invalid (?P<type>\S+) value: (?P<given>.*)",
        N_("invalid %(clause)s value: %(given)s"),
    ),
    (
        r"invalid choice: (?P<given>.*) \(choose from (?P<choices>.*)\)",
        N_("invalid choice: %(given)s (choose from %(choices)s)"),
    ),
    (
        r"unknown parser (?P<given>.*) \(choices: (?P<choices>.*)\)",
        N_("unknown parser %(given)s (choices: %(choices)s)"),
    ),
)

#: The value types argparse names in ``invalid %(type)s value``, said in the language.
_TYPES = {"int": N_("int"), "float": N_("float")}

#: argparse's own words outside a reason (the usage's prefix, the sections' titles, the
#: help of ``-h``): said by `Formatter` like any help text.
WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
)

#: The reasons of the commands' own types (`type_error`), by their English text.
_TYPED: dict[str, Said] = {}


def type_error(message: Said) -> argparse.ArgumentTypeError:
    """The error a value's ``type=`` function raises, its reason a `said` message:
    argparse keeps only its English text, so the message is kept here to be said again
    in the parser's language."""
    _TYPED[str(message)] = message
    return argparse.ArgumentTypeError(message)


def reason(text: str) -> str:
    """argparse's English reason as a `said` message where it is one of argparse's (or a
    `type_error`), said again in any language; else ``text`` as it is."""
    if text in _TYPED:
        return _TYPED[text]
    for pattern, msgid in _ARGPARSE:
        found = re.fullmatch(pattern, text, re.S)
        if not found:
            continue
        words: dict[str, object] = dict(found.groupdict())
        if "clause" in words:
            words["clause"] = clause(reason(str(words["clause"])))
        if "type" in words:  # a type argparse names: said in the language where we know it
            kind = str(words.pop("type"))
            words["clause"] = clause(said(_TYPES[kind])) if kind in _TYPES else kind
        message = said(msgid, **words)
        return message if message == text else text  # the English, word for word
    return text


class Formatter(argparse.HelpFormatter):
    """argparse's help and usage, every word of ours and of argparse's said through the
    catalog ``tr``."""

    def __init__(self, prog: str, tr: Translator = ENGLISH) -> None:
        super().__init__(prog)
        self._tr = tr

    def words(self, text: str | None) -> str | None:
        """A help text, description or title in the parser's language."""
        if not text or text == argparse.SUPPRESS:
            return text
        if isinstance(text, Said):
            return translated(text, self._tr)
        return self._tr.gettext(text)

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        if prefix is None:
            prefix = self._tr.gettext("usage: ")
        super().add_usage(usage, actions, groups, prefix)

    def start_section(self, heading: str | None) -> None:
        super().start_section(self.words(heading))

    def add_text(self, text: str | None) -> None:
        super().add_text(self.words(text))

    def _get_help_string(self, action: argparse.Action) -> str | None:
        help = action.help
        if isinstance(help, Said):  # its values are in: nothing of argparse's to fill in
            return translated(help, self._tr).replace("%", "%%")
        return self.words(help)


class Parser(argparse.ArgumentParser):
    """An `argparse.ArgumentParser` that speaks `tr` (a class per language: `speaking`;
    its sub-commands' parsers are of the same class, so they speak it too)."""

    tr: Translator = ENGLISH

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", self._formatter)
        super().__init__(*args, **kwargs)

    def _formatter(self, prog: str) -> Formatter:
        return Formatter(prog, self.tr)

    def error(self, message: str) -> NoReturn:
        """argparse's ``error``, its reason said again in the parser's language."""
        self.print_usage(sys.stderr)
        text = said("%(prog)s: error: %(clause)s", prog=self.prog, clause=clause(reason(message)))
        self.exit(2, translated(text, self.tr) + "\n")


def speaking(tr: Translator) -> type[Parser]:
    """The parser class that speaks ``tr``."""
    if tr is ENGLISH:
        return Parser
    speaks: type[Parser] = type("Parser", (Parser,), {"tr": tr, "__module__": __name__})
    return speaks


# ------------------------------------------------------------ the language, before parsing


def _code(name: str) -> str:
    """``de_DE.UTF-8``, ``de-AT``, ``hu`` -> ``de``, ``de``, ``hu`` (lower case)."""
    return re.split(r"[_.@-]", name.strip(), maxsplit=1)[0].lower()


def _option(argv: Sequence[str], name: str, least: int) -> list[str]:
    """The values given to the option ``--name`` (or a prefix of it at least ``least``
    letters long, as argparse takes it) in ``argv``, up to ``--``."""
    values = []
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        flag, eq, value = arg.partition("=")
        if not flag.startswith("--") or len(flag) < 2 + least or not name.startswith(flag[2:]):
            continue
        if eq:
            values.append(value)
        elif i + 1 < len(argv):
            values.append(argv[i + 1])
    return values


def _settings_language(argv: Sequence[str]) -> str | None:
    """``carolus run``'s language as its settings name it (``--set language=X``, else the
    ``--config`` file's ``language``), if that is cheap to know; else None."""
    for item in reversed(_option(argv, "set", 3)):
        key, eq, value = item.partition("=")
        if eq and key.strip() == "language":
            return value.strip().strip("\"'")
    for path in reversed(_option(argv, "config", 3)):
        import tomllib

        try:
            with open(path, "rb") as file:
                named = tomllib.load(file).get("language")
        except (OSError, ValueError):  # said by `carolus run` itself when it reads it
            return None
        return named if isinstance(named, str) else None
    return None


def language(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """The language of the command line's own words, known before it is parsed: a code
    of `web.i18n.LANGUAGES` (``en`` when none of them is asked for)."""
    asked = _option(argv, "language", 3)
    first = next((arg for arg in argv if not arg.startswith("-")), None)
    named = asked[-1] if asked else (_settings_language(argv) if first == "run" else None)
    if named is not None:
        return _known(_code(named)) or "en"
    environ = os.environ if environ is None else environ
    for variable in ENVIRONMENT:
        value = environ.get(variable)
        if not value:
            continue
        for name in value.split(":"):  # gettext: the first language it has a catalog of
            if name in ("C", "POSIX") or name.startswith("C."):
                return "en"
            code = _known(_code(name)) if name else None
            if code:
                return code
        return "en"
    return "en"


def _known(code: str) -> str | None:
    """``code`` if the catalogs speak it."""
    if code == "en":
        return code
    from web.i18n import LANGUAGES

    return code if code in LANGUAGES else None


class _Later:
    """The catalog of a language, read when the parser first says something (a command
    line that parses says nothing of argparse's, so it reads no catalog for it)."""

    def __init__(self, code: str) -> None:
        self.code = code

    @property
    def _catalog(self) -> Translator:
        from web.i18n import translations

        return translations(self.code)  # read once (cached there)

    def gettext(self, message: str, /) -> str:
        return self._catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return self._catalog.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str, /) -> object:
        return self._catalog.pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> object:
        return self._catalog.npgettext(context, singular, plural, n)


def catalog(code: str) -> Translator:
    """The catalog of a `language` (English: the msgids, no catalog read), read when it
    is first needed."""
    return ENGLISH if code == "en" else _Later(code)


__all__ = ["Formatter", "Parser", "catalog", "language", "reason", "speaking", "type_error"]
