"""Reading the files a user hands us (records, hero files, maps, sheets, set-ups).

Every reader takes regular files only (never a folder, a device such as ``/dev/zero`` or
a pipe), caps the size, the nesting depth and the length of a number, refuses YAML
aliases (no file format of ours needs them; they make "billion laughs" bombs), and
names the file and the line in its error: a :class:`FileRefused`.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from gladiatorium.core.errors import GladiatoriumError

#: the largest file a reader takes (a long Hero Battle record is a few megabytes)
MAX_FILE_BYTES = 16 * 1024 * 1024
#: the deepest nesting of lists and mappings (our formats need fewer than ten levels)
MAX_DEPTH = 64
#: the most characters of one number (no rule needs more than a few digits)
MAX_NUMBER_CHARS = 30


class FileRefused(GladiatoriumError):
    """A file that cannot be read as the format asks; says which file and line."""

    def __init__(
        self, source: str | Path, reason: str, line: int | None = None, column: int | None = None
    ) -> None:
        self.source = str(source)
        self.reason = reason
        self.line = line
        where = self.source if line is None else f"{self.source}:{line}"
        where += "" if line is None or column is None else f":{column}"
        super().__init__(f"{where}: {reason}")


def flag_error(flag: str, err: FileRefused) -> str:
    """The message for a file given with a command-line flag (``--setup FILE``)."""
    if err.line is None:
        return f"{flag} {err.source}: cannot read it ({err.reason})"
    return f"{flag} {err}"


def read_text(path: Path, limit: int = MAX_FILE_BYTES) -> str:
    """The text of a regular UTF-8 file of at most ``limit`` bytes (a BOM is dropped)."""
    try:
        # O_NONBLOCK: opening a pipe must not wait for a writer; fstat then refuses it
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise FileRefused(path, "no such file") from None
    except IsADirectoryError:
        raise FileRefused(path, "is a folder, not a file") from None
    except OSError as err:
        raise FileRefused(path, f"cannot be read ({err.strerror or err})") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise FileRefused(path, "is a folder, not a file")
        raise FileRefused(path, "not a regular file (a device, pipe or socket)")
    with os.fdopen(fd, "rb") as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as err:
            raise FileRefused(path, f"cannot be read ({err.strerror or err})") from None
    if len(data) > limit:
        raise FileRefused(path, f"larger than {limit:,} bytes; not a file of ours")
    return decode(data, path)


def decode(data: bytes, source: str | Path) -> str:
    """UTF-8 text, or an error naming the line of the first byte that is not text."""
    if b"\0" in data:
        line = data[: data.index(b"\0")].count(b"\n") + 1
        raise FileRefused(source, "a binary file, not text (a NUL byte)", line)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise FileRefused(source, "not UTF-8 text", line) from None


def _line_of(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


class _LongNumber(ValueError):
    def __init__(self, digits: str) -> None:
        super().__init__(f"a number longer than {MAX_NUMBER_CHARS} characters")
        self.digits = digits


def _bounded(kind: type[int] | type[float]) -> Any:
    def parse(text: str) -> int | float:
        if len(text) > MAX_NUMBER_CHARS:
            raise _LongNumber(text)
        number = kind(text)
        if not math.isfinite(number):
            raise ValueError(f"{text} is too large a number")
        return number

    return parse


def check_depth(data: Any, source: str | Path, limit: int = MAX_DEPTH) -> None:
    """Refuse lists and mappings nested deeper than ``limit`` (checked without recursion)."""
    stack = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            node = list(node.values())
        if isinstance(node, list):
            if depth > limit:
                raise FileRefused(source, f"nested deeper than {limit} levels")
            stack.extend((child, depth + 1) for child in node)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number of ours")


def parse_json(text: str, source: str | Path) -> Any:
    """JSON with bounded numbers and depth; NaN and Infinity refused."""
    try:
        data = json.loads(
            text,
            parse_int=_bounded(int),
            parse_float=_bounded(float),
            parse_constant=_refuse_constant,
        )
    except json.JSONDecodeError as err:
        raise FileRefused(source, f"not valid JSON: {err.msg}", err.lineno, err.colno) from None
    except _LongNumber as err:
        raise FileRefused(source, str(err), _line_of(text, text.find(err.digits))) from None
    except RecursionError:
        raise FileRefused(source, f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as err:
        raise FileRefused(source, f"not valid JSON: {err}") from None
    check_depth(data, source)
    return data


class _SafeLimits(yaml.composer.Composer, yaml.constructor.SafeConstructor):
    """PyYAML's safe composer and constructor without aliases, with a depth limit (and
    short numbers, below); the loaders add a parser and the resolver."""

    _depth = 0

    if TYPE_CHECKING:  # the parser's, beside it in the loader

        def __init__(self, stream: str) -> None: ...
        def check_event(self, *choices: Any) -> bool: ...
        def peek_event(self) -> Any: ...
        def dispose(self) -> None: ...

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not allowed in our files", mark
            )
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise yaml.composer.ComposerError(
                    None, None, f"nested deeper than {MAX_DEPTH} levels", mark
                )
            return yaml.composer.Composer.compose_node(self, parent, index)
        finally:
            self._depth -= 1


class PureSafeYamlLoader(
    yaml.reader.Reader,
    yaml.scanner.Scanner,
    yaml.parser.Parser,
    _SafeLimits,
    yaml.resolver.Resolver,
):
    """PyYAML's safe loader without aliases, with a depth limit and short numbers, all
    in Python: where PyYAML was built without libyaml."""

    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)


SafeYamlLoader: type[_SafeLimits] = PureSafeYamlLoader

if yaml.__with_libyaml__:  # PyYAML's wheels carry libyaml
    from yaml._yaml import CParser

    class LibyamlSafeYamlLoader(
        _SafeLimits,
        CParser,
        yaml.resolver.Resolver,
    ):
        """The same loader on libyaml's scanner and parser (in C, about five times the
        speed): they feed the Python composer, which keeps the limits (so it comes
        first: CParser would compose the nodes itself)."""

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

    SafeYamlLoader = LibyamlSafeYamlLoader


def _short_number(loader: Any, node: yaml.Node, number: Any) -> Any:
    if len(str(node.value)) > MAX_NUMBER_CHARS:
        raise yaml.constructor.ConstructorError(
            None, None, f"a number longer than {MAX_NUMBER_CHARS} characters", node.start_mark
        )
    return number(loader, node)


_SafeLimits.add_constructor(
    "tag:yaml.org,2002:int",
    lambda loader, node: _short_number(loader, node, yaml.SafeLoader.construct_yaml_int),
)
_SafeLimits.add_constructor(
    "tag:yaml.org,2002:float",
    lambda loader, node: _short_number(loader, node, yaml.SafeLoader.construct_yaml_float),
)


def _yaml_refusal(err: yaml.YAMLError, source: str | Path, text: str) -> FileRefused:
    mark = getattr(err, "problem_mark", None)
    problem = getattr(err, "problem", None) or "syntax error"
    # libyaml puts the end of a text without a last line break on a line after it
    line = min(mark.line + 1, text.count("\n") + 1) if mark else None
    return FileRefused(source, f"not valid YAML: {problem}", line)


def _read_yaml(text: str, source: str | Path, data: bool) -> tuple[Any, yaml.Node | None]:
    """The node tree of ``text`` through :class:`SafeYamlLoader` and, with ``data``, the
    data made from it (None without); a :class:`FileRefused` naming ``source`` and the
    line."""
    try:
        loader = SafeYamlLoader(text)
        try:
            root = loader.get_single_node()
            made = loader.construct_document(root) if data and root is not None else None
            return made, root
        finally:
            loader.dispose()
    except yaml.YAMLError as err:
        raise _yaml_refusal(err, source, text) from None
    except RecursionError:
        raise FileRefused(source, f"nested deeper than {MAX_DEPTH} levels") from None


def parse_yaml(text: str, source: str | Path) -> Any:
    """YAML data through :class:`SafeYamlLoader`."""
    return _read_yaml(text, source, data=True)[0]


def parse_yaml_with_lines(text: str, source: str | Path) -> tuple[Any, yaml.Node | None]:
    """YAML data and its node tree (for line numbers, :func:`yaml_line`), read once."""
    return _read_yaml(text, source, data=True)


def compose_yaml(text: str, source: str | Path) -> yaml.Node | None:
    """The YAML node tree (for line numbers) through :class:`SafeYamlLoader`."""
    return _read_yaml(text, source, data=False)[1]


def yaml_line(root: yaml.Node | None, loc: Sequence[int | str]) -> str:
    """``:N``, the line of the deepest part of ``loc`` found in the YAML (or '')."""
    node, line = root, None
    for part in loc:
        if node is None:
            break
        line = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == str(part)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            node = node.value[part] if part < len(node.value) else None
        else:
            node = None
    if node is not None:
        line = node.start_mark.line + 1
    return f":{line}" if line is not None else ""
