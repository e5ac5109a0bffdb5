"""A layout evaluated for one card or board: its templates run in the sandbox (`let:`, `when:`, `repeat:` and
every templated value), each value read by its field's role, and each element drawn by its kind (spec.py)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ..core.display import Face, Turned
from ..core.errors import Finding, Location, MusterError
from ..core.model import Game
from ..core import sandbox
from .elements import Canvas
from .files import Element, Layout, Value
from .roles import NAME
from .spec import AS, ELEMENTS, MAX_REPEAT, ROTATE, Field
from .findings import small_text

RECORD, UNIT = "\x1e", "\x1f"  # separators of the values a layout's one template writes
MEMO = 64  # distinct sets of values whose drawing each element remembers


class _Memo(dict):
    """What an element drew (its items, and the findings drawing them made), by its values; `hit` once a set of
    values came again."""

    hit = False


class Evaluator:
    """Evaluates one layout for one game; one instance serves every card of a deck. `field` is what its errors
    are filed under (decks.reds.face, boards.map)."""

    def __init__(self, game: Game, layout: Layout, bleed: float, size: tuple[float, float], field: str):
        self.layout = layout = layout.in_language(game.language)
        self.field = field
        self.small_text = True  # whether text too small to read is reported: validation asks, a build need not
        self.colours = game.colours
        self.canvas = Canvas(size, bleed, game.root, dict(game.icons))
        self.fixed: dict[tuple[int, str], object] = {}  # values without templates, coerced once
        self.fields = [[f for f in ELEMENTS[e.kind].fields if f.name in e.fields or f.name in ELEMENTS[e.kind].defaults]
                       for e in layout.elements]  # per element, the fields it has a value for, given or by default
        self.repeated: dict[int, Any] = {}  # per element with `repeat:`, a template of its values, run per item
        self.program, self.templated, self.per_card = self._program()
        self.output: tuple[str, dict[int, list[str]] | None] | None = None  # the program's output, if not per card
        self.static: dict[int, dict] = {}  # per element, its values without templates
        self.drawn: dict[int, _Memo] = {}  # per element (by id): what _drawn remembers
        # A face is a function of what the program writes unless an element loops or turns by a template; then
        # faces are remembered by that output, so a shared back or a repeated card is laid out once.
        self.remembered: dict[str, tuple[Face, tuple[Finding, ...]]] | None = None
        if self.program is not None and not any(
                "repeat" in e.fields or ("rotate" in e.fields and sandbox.is_template(e.fields["rotate"].raw))
                for e in layout.elements):
            self.remembered = {}

    def _program(self):
        """One template that evaluates every templated value of the layout at once, and which values it holds.

        Rendering one template per face instead of one per value is most of the cost of a layout. Each element's
        values are written after a record separator and its number, each after a unit separator; an element whose
        `when` is false writes nothing. An element with `repeat:` gets a template of its own, run once per item.
        """
        parts, templated = [], {}
        for number, element in enumerate(self.layout.elements):
            keys = [f for f in self.fields[number]
                    if f.name in element.fields and sandbox.is_template(element.fields[f.name].raw)]
            templated[number] = keys
            if "repeat" in element.fields:
                try:
                    self.repeated[number] = sandbox.compile_template(
                        UNIT.join(str(element.fields[f.name].raw) for f in keys))
                except (sandbox.TemplateError, RecursionError):  # the per-value path says which value, and where
                    pass
                continue
            body = RECORD + str(number) + "".join(UNIT + str(element.fields[f.name].raw) for f in keys)
            when = element.fields.get("when")
            if when is None or when.raw is True:
                parts.append(body)
            elif when.raw is not False:
                parts.append("{% if " + str(when.raw) + " %}" + body + "{% endif %}")
        source = "".join(parts)
        try:  # what the program writes is the same for every card of a deck unless it reads the card
            return (sandbox.compile_template(source), templated,
                    sandbox.may_read(source, "card") or bool(self.layout.let))
        except (sandbox.TemplateError, RecursionError):  # a broken value: the per-value path says which, and where
            return None, templated, True

    def _run_program(self, context: dict) -> tuple[str, dict[int, list[str]] | None]:
        """What the program wrote, and each drawn element's templated values as text; None when the per-value
        path must take over."""
        if self.program is None:
            return "", None
        try:
            output = self.program.render(context)
        except sandbox.TimeLimit:
            raise
        except Exception:  # the per-value path reports the failure with its file and line
            return "", None
        result = {}
        for record in output.split(RECORD)[1:]:
            number, *values = record.split(UNIT)
            number = int(number)
            if len(values) != len(self.templated[number]):
                return output, None  # a value contained a separator
            result[number] = values
        return output, result

    def face(self, context: dict, drawing: Callable[[], str]) -> tuple[Face, tuple[Finding, ...]]:
        """The face drawn in `context`, and the problems that did not stop it (text that does not fit), located
        in the layout. A value that cannot be evaluated raises MusterError, naming what was being drawn by
        `drawing()` ("board 'map'"), which is asked only then."""
        try:
            if self.layout.let:
                context = _let(self.layout.let, context)
            if self.per_card:
                output, evaluated = self._run_program(context)
            else:
                if self.output is None:
                    self.output = self._run_program(context)
                output, evaluated = self.output
            if evaluated is None or self.remembered is None:
                found: list[Finding] = []
                return self._face(context, evaluated, found), tuple(found)
            known = self.remembered.get(output)
            if known is None:
                found = []
                known = self.remembered[output] = (self._face(context, evaluated, found), tuple(found))
            return known
        except MusterError as exc:
            raise MusterError(f"{exc.message} (drawing {drawing()})", exc.where, exc.field or self.field,
                              exc.code) from None

    def _face(self, context: dict, evaluated: dict[int, list[str]] | None, found: list[Finding]) -> Face:
        items = []
        for number, element in enumerate(self.layout.elements):
            if evaluated is not None and "repeat" not in element.fields:
                if number not in evaluated:
                    continue  # its `when` was false
                try:
                    items.extend(self._draw(element, self._values(number, element, evaluated[number]), context, found))
                    continue
                except MusterError as exc:
                    if exc.where:
                        raise
                except (ValueError, TypeError, ArithmeticError):  # Python's own, from drawing: math.sqrt(-1)
                    pass
                # evaluated again below, to name the value at fault
            for scope in _scopes(element, context):
                try:
                    if "when" in element.fields and not _condition(element.fields["when"], scope):
                        continue
                    items.extend(self._draw(element, self._item_values(number, element, scope), scope, found))
                except MusterError as exc:  # a value drawing refused (points:, rotate:): the element's
                    if exc.where:
                        raise
                    raise MusterError(exc.message, element.where, exc.field, exc.code) from None
                except (sandbox.TemplateError, ValueError, TypeError, ArithmeticError, RecursionError) as exc:
                    code = "template-error" if isinstance(exc, sandbox.TemplateError) else "bad-value"
                    raise _failure(exc, element.where, code=code) from None
        return Face(self.canvas.size[0], self.canvas.size[1], tuple(items))

    def _values(self, number: int, element: Element, texts: list[str]) -> dict:
        """An element's values: those without templates as coerced once, the others from the texts given."""
        static = self.static.get(number)
        if static is None:
            static = self.static[number] = {f.name: self._value(number, f, element, {})
                                            for f in self.fields[number] if f not in self.templated[number]}
        values = dict(static)
        for field, text in zip(self.templated[number], texts):
            values[field.name] = field.read(text, self.colours)
        return values

    def _item_values(self, number: int, element: Element, scope: dict) -> dict:
        """The values of one item of a `repeat:` (or of an element the program could not evaluate): by the
        element's own template when it runs cleanly, else value by value, which names the one at fault."""
        program = self.repeated.get(number)
        if program is not None:
            try:
                texts = program.render(scope).split(UNIT) if self.templated[number] else []
                if len(texts) == len(self.templated[number]):
                    return self._values(number, element, texts)
            except sandbox.TimeLimit:
                raise
            except Exception:  # any failure is found again below, with its file and line
                pass
        return {f.name: self._value(number, f, element, scope) for f in self.fields[number]}

    def _draw(self, element: Element, values: dict, context: dict, found: list[Finding]) -> Sequence:
        """The element's items, turned about the centre of its box when it has `rotate:`."""
        drawn = self._drawn(element, values, found)
        if "rotate" not in element.fields or not drawn:
            return drawn
        raw = element.fields["rotate"].raw
        angle = ROTATE.read(sandbox.render(raw, context) if sandbox.is_template(raw) else raw, self.colours)
        if not angle:
            return drawn
        cx, cy = values["x"] + values["w"] / 2, values["y"] + values["h"] / 2
        return [Turned(cx, cy, angle, tuple(drawn))]

    def _drawn(self, element: Element, values: dict, found: list[Finding]) -> tuple:
        """The element's items drawn with these values, with what drawing them found. Drawing depends on nothing
        else, so each element remembers what its first MEMO distinct sets of values drew: an element without
        templates (a border, an icon's text), or whose templates give a few values (a card's colour, its cost),
        is set once per deck, not once per card."""
        memo = self.drawn.get(id(element))
        if memo is None:
            memo = self.drawn[id(element)] = _Memo()
        key = None
        if memo.hit or len(memo) < MEMO:  # else its first MEMO sets of values all differed: each card has its own
            try:
                key = (self.small_text, *values.items())
                known = memo.get(key)
            except TypeError:  # a value that is a list
                key = known = None
            if known is not None:
                memo.hit = True
                found.extend(known[1])
                return known[0]
        before = len(found)
        drawn = tuple(ELEMENTS[element.kind].draw(values, element, self.canvas, found))
        if self.small_text:
            accept = element.fields.get("accept")
            found.extend(small_text(drawn, element.where, accept.raw if accept else ()))
        if key is not None and len(memo) < MEMO:
            memo[key] = (drawn, tuple(found[before:]))
        return drawn

    def _value(self, number: int, field: Field, element: Element, context: dict):
        """One value, by its own template when it has one; the place of the value at fault when it fails."""
        key = field.name
        fixed = self.fixed.get((number, key), self)
        if fixed is not self:
            return fixed
        value = element.fields.get(key)
        raw = value.raw if value else ELEMENTS[element.kind].defaults.get(key)
        where = value.where if value else element.where
        templated = sandbox.is_template(raw)
        if templated:
            try:
                raw = sandbox.render(raw, context)
            except Exception as exc:  # any template failure is the layout author's to fix
                raise _failure(exc, where, f"{key}: ") from None
        try:
            result = field.read(raw, self.colours)
        except MusterError as exc:
            raise MusterError(exc.message, where, exc.field, exc.code) from None
        if not templated:
            self.fixed[(number, key)] = result
        return result


def _let(let: tuple[tuple[str, Value], ...], context: dict) -> dict:
    """The context with a layout's `let:` names added, each an expression over what comes before it."""
    context = dict(context)
    for name, value in let:
        if name in context:
            raise MusterError(f"let: '{name}' is already a name templates see", value.where, code="bad-name")
        try:
            context[name] = sandbox.compile_expression(str(value.raw))(**context) if isinstance(value.raw, str) else value.raw
        except Exception as exc:  # any template failure is the layout author's to fix
            raise _failure(exc, value.where, f"let: {name}: ") from None
    return context


def _scopes(element: Element, context: dict):
    """The contexts an element is drawn in: once, or once per item of its `repeat:` list, bound to `as:`."""
    if "repeat" not in element.fields:
        yield context
        return
    repeat = element.fields["repeat"]
    try:
        items = sandbox.compile_expression(str(repeat.raw))(**context)
        items = list(items) if not isinstance(items, (str, dict)) else None
    except Exception as exc:  # any template failure is the layout author's to fix
        raise _failure(exc, repeat.where, "repeat: ") from None
    if items is None or len(items) > MAX_REPEAT:
        raise MusterError(f"repeat: expected a list of at most {MAX_REPEAT} items", repeat.where, code="bad-value")
    name = str(element.fields["as"].raw) if "as" in element.fields else AS.default
    if not NAME.fits(name) or name in context:
        raise MusterError(f"as: '{name}' must be a new lower-case name", element.fields.get("as", repeat).where,
                          code="bad-name")
    for index, item in enumerate(items):
        loop = {"index0": index, "index": index + 1, "length": len(items), "first": index == 0,
                "last": index == len(items) - 1}
        yield {**context, name: item, "loop": loop}


def _condition(value: Value, context: dict) -> bool:
    if isinstance(value.raw, bool):
        return value.raw
    try:
        return bool(sandbox.compile_expression(str(value.raw))(**context))
    except Exception as exc:  # any template failure is the layout author's to fix
        raise _failure(exc, value.where, "when: ") from None


def _failure(exc: Exception, where: Location, prefix: str = "", code: str = "template-error") -> MusterError:
    """A failure of the layout's author to fix, as the error that says so: the first line of what went wrong, and
    the limit when it was one."""
    text, code = sandbox.failure(exc, code)
    return MusterError(prefix + text, where, code=code)
