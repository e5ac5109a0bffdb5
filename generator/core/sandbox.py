"""The Jinja environments user templates run in: immutable sandbox, strict undefined names, no template reading
another, and a budget (budget.py) of steps, sizes and depth for every run, besides the time limit of a stage.

environment() serves layouts and game.yaml; environment(markdown=True) serves rulebooks, whose printed values are
escaped as HTML entities, which Markdown reads as the characters themselves: a card titled "<b>" is printed as
that text, not read as markup."""

from __future__ import annotations

import hashlib
import pickle
import re
import signal
import sys
import threading
from contextlib import contextmanager
from functools import lru_cache, update_wrapper, wraps
from pathlib import Path
from types import BuiltinMethodType, CodeType, MethodType
from typing import Callable

from jinja2 import StrictUndefined, Template, TemplateError, TemplateSyntaxError, nodes
from jinja2.bccache import Bucket
from jinja2.environment import TemplateExpression
from jinja2.compiler import CodeGenerator, optimizeconst
from jinja2.parser import Parser
from jinja2.runtime import LoopContext, Macro, markup_join, str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedEscapeFormatter, SandboxedFormatter, SecurityError
from markupsafe import Markup

from . import budget
from .budget import TemplateBudget
from .errors import did_you_mean
from .files import user_cache

TIME_LIMIT = 60          # seconds one stage's templates may run in all
MAX_LISTED = 12          # keys an error about a missing key lists
MAX_NESTING = 16         # blocks ({% for %}, {% if %}, {% macro %}...) one inside another (Python: 20 loops)


class Record(dict):
    """A mapping templates read that knows what it is ("card") and what its keys are ("trait"), so that a key it
    lacks is reported in Muster's words: "card has no trait 'hands'; it has: ...", not Jinja's "'dict object' has
    no attribute 'hands'". Its own attributes start with _ (which the sandbox hides) so no key is shadowed."""

    __slots__ = ("_what", "_noun")

    def __init__(self, what: str, noun: str, values=()):
        super().__init__(values)
        self._what = what
        self._noun = noun


_NUMBERS = frozenset([int, float])
_NUMBERS_KEPT_SMALL = frozenset(["+", "%"])  # of two numbers: at most a bit longer than the longer one
_PLAIN_MAPPINGS = frozenset([dict, Record])  # mappings with no attributes but their type's (Record's slots)
_MAPPING_ATTRIBUTES = frozenset(dir(Record))  # dict's methods, and Record's slots


class Missing(StrictUndefined):
    """Strict undefined names and keys, described in the words of the Record they are missing from."""

    __slots__ = ()

    @property
    def _undefined_message(self) -> str:
        record = self._undefined_obj
        if isinstance(record, Record) and isinstance(self._undefined_name, str):
            keys = sorted(map(str, record))
            listed = ", ".join(keys[:MAX_LISTED]) + (f" and {len(keys) - MAX_LISTED} more" if len(keys) > MAX_LISTED else "")
            name = self._undefined_name
            return f"{record._what} has no {record._noun} '{name}'{did_you_mean(name, keys)}; it has: {listed or 'nothing'}"
        return super()._undefined_message


class Forbidden(TemplateSyntaxError):
    """A template uses {% include %}, {% import %} or {% extends %}: no template reads another file."""


class TooDeep(TemplateSyntaxError):
    """A template's blocks or expressions are nested more deeply than Python can compile."""


class Generator(CodeGenerator):
    """Jinja's code generator, with the budget's hooks: loops count their turns, `~` is weighed before it joins,
    and the statements that read other templates are refused."""

    def visit_For(self, node, frame):
        counted = nodes.Call(nodes.EnvironmentAttribute("counted", lineno=node.iter.lineno), [node.iter], [], None,
                             None, lineno=node.iter.lineno)
        super().visit_For(nodes.For(node.target, counted, node.body, node.else_, node.test, node.recursive,
                                    lineno=node.lineno), frame)

    @optimizeconst
    def visit_Concat(self, node, frame):
        self.write("environment.join_text((")
        for argument in node.nodes:
            self.visit(argument, frame)
            self.write(", ")
        self.write("))")

    def _refuse(self, node, frame):
        statement = {"Include": "include", "Import": "import", "FromImport": "from ... import",
                     "Extends": "extends"}[type(node).__name__]
        raise Forbidden(f"{{% {statement} %}} is not allowed: a template may not read another file", node.lineno)

    visit_Include = visit_Import = visit_FromImport = visit_Extends = _refuse


class Budgeted(Template):
    """A compiled template whose every run (render, or an expression's call) starts with a fresh budget."""

    def new_context(self, vars=None, shared=False, locals=None):
        budget.start()
        return super().new_context(vars, shared, locals)


class _Measured:
    """A str.format formatter that checks each field's width and value before formatting it, and the total."""

    written = 0

    def vformat(self, format_string, args, kwargs):
        self.written = 0
        return super().vformat(format_string, args, kwargs)

    def convert_field(self, value, conversion):
        budget.need(budget.weigh(value), "format()")
        return super().convert_field(value, conversion)

    def format_field(self, value, format_spec):
        budget.format_spec(format_spec)
        budget.need(budget.weigh(value), "format()")
        text = super().format_field(value, format_spec)
        self.written += len(text)
        budget.need(self.written, "format()")
        return text


class _MeasuredFormatter(_Measured, SandboxedFormatter):
    pass


class _MeasuredEscapeFormatter(_Measured, SandboxedEscapeFormatter):
    pass


class Sandbox(ImmutableSandboxedEnvironment):
    """No attribute of Python's internals, no mutation, and nothing built or done over the template's budget."""

    code_generator_class = Generator
    template_class = Budgeted
    intercepted_binops = frozenset(["*", "**", "+", "%"])
    concat = staticmethod(budget.concat)
    counted = staticmethod(budget.counted)

    def _parse(self, source, name, filename):
        """Jinja's parsing (Environment._parse), refusing what is nested too deeply to be compiled: expressions
        beyond Python's stack (at the line where the parser gave up), blocks beyond MAX_NESTING."""
        parser = Parser(self, source, name, filename)
        try:
            tree = parser.parse()
        except RecursionError:
            raise TooDeep("nested more deeply than a template may nest (a limit on templates)",
                          parser.stream.current.lineno, name, filename) from None
        pending = [(tree, 0)]
        while pending:  # Python reads no more than 100 levels of indentation: blocks are held well within
            node, depth = pending.pop()
            if depth > MAX_NESTING:
                raise TooDeep(f"blocks nested more than {MAX_NESTING} deep (a limit on templates)", node.lineno,
                              name, filename)
            pending.extend((child, depth + ("body" in child.fields)) for child in node.iter_child_nodes())
        return tree

    def getattr(self, obj, attribute):
        """`obj.attribute` as Jinja's sandbox reads it: the attribute, else the item. Of a plain mapping (a card,
        a Record) under a name that is no attribute of its type, the item at once: the sandbox would first ask for
        the attribute, and its failure, an exception raised and caught, was most of the cost of `card.title`."""
        if type(obj) in _PLAIN_MAPPINGS and attribute not in _MAPPING_ATTRIBUTES and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)

    def call_binop(self, context, operator, left, right):
        if type(left) in _NUMBERS and type(right) in _NUMBERS and operator in _NUMBERS_KEPT_SMALL:
            return self.binop_table[operator](left, right)  # nothing to weigh (budget.check_operator, measured)
        budget.check_operator(operator, left, right)
        return budget.measured(super().call_binop(context, operator, left, right), operator)

    def join_text(self, parts: tuple) -> str:
        """`a ~ b ~ ...`: Jinja's, once weighed."""
        budget.joined(parts)
        return (markup_join if self.autoescape else str_join)(parts)

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (named as Jinja does: a keyword may be any name)
        budget.step(budget.CALL_STEPS)
        if isinstance(__obj, (Macro, LoopContext)):  # a macro, or a recursive loop's next level
            if budget.spent.depth >= budget.MAX_DEPTH:
                raise TemplateBudget(f"macros may call one another at most {budget.MAX_DEPTH} deep "
                                     "(a limit on templates)")
            if isinstance(__obj, LoopContext):
                args = (budget.counted(args[0]),) + args[1:]
            budget.spent.depth += 1
            try:
                return super().call(__context, __obj, *args, **kwargs)
            finally:
                budget.spent.depth -= 1
        args = budget.method_arguments(__obj, args, kwargs)
        return budget.measured(super().call(__context, __obj, *args, **kwargs), "a call")

    def wrap_str_format(self, value):
        """str.format and str.format_map, sandboxed as Jinja does, and measured."""
        text = getattr(value, "__self__", None)
        if not (isinstance(value, (MethodType, BuiltinMethodType)) and isinstance(text, str)
                and value.__name__ in ("format", "format_map")):
            return None
        formatter = (_MeasuredEscapeFormatter(self, escape=text.escape) if isinstance(text, Markup)
                     else _MeasuredFormatter(self))

        def measured(*args, **kwargs):
            if value.__name__ == "format_map":
                if kwargs or len(args) != 1:
                    raise TypeError("format_map() takes exactly one argument")
                args, kwargs = (), args[0]
            return budget.measured(type(text)(formatter.vformat(text, args, kwargs)), "format()")

        return update_wrapper(measured, value)


def _guarded(name: str, function):
    """A filter, its input and arguments checked first (budget.FILTERS) and its result measured."""
    check = budget.FILTERS.get(name)
    offset = 1 if getattr(function, "jinja_pass_arg", None) is not None else 0

    @wraps(function)
    def run(*args, **kwargs):
        if check is not None and len(args) > offset:
            args = args[:offset] + (check(*args[offset:], **kwargs),) + args[offset + 1:]
        return budget.measured(function(*args, **kwargs), name)

    return run


@lru_cache(maxsize=2)
def environment(markdown: bool = False) -> Sandbox:
    """The environment of layouts and game.yaml, or with `markdown` of rulebooks (printed values escaped)."""
    env = Sandbox(undefined=Missing, autoescape=markdown, keep_trailing_newline=False, cache_size=4096,
                  finalize=budget.printable)
    env.globals.update(range=budget.bounded_range, lipsum=budget.lipsum)  # keeps dict, namespace, cycler, joiner
    env.filters = {name: _guarded(name, function) for name, function in env.filters.items()}
    return env


@lru_cache(maxsize=8192)
def compile_template(source: str):
    """A compiled template for `source`; the same string is compiled once per process, and once at all while its
    code is in the cache of compiled templates (_compiled)."""
    return compiled_in(environment(), source, "layout")


def compiled_in(env: Sandbox, source: str, kind: str) -> Template:
    """A template of `source` in `env` (an environment of environment()'s, or an overlay of one), its code from the
    cache of compiled templates, filed under `kind`: environments that may compile a source differently (escaping
    or not) file it apart."""
    return _template(env, _code(kind, source, lambda: env.compile(source)))


def _template(env: Sandbox, code: CodeType) -> Template:
    """The template of compiled `code` in `env`. Jinja gives a template a ChainMap over the environment's globals,
    which each run copies into its context key by key, in Python: 3 µs, most of the cost of running a card's
    layout program. An environment's globals are all set when it is made (environment()), so a plain dict of them
    is the same."""
    return env.template_class.from_code(env, code, dict(env.make_globals(None)))


@lru_cache(maxsize=1024)
def compile_expression(source: str) -> TemplateExpression:
    """`source` compiled as an expression, as Environment.compile_expression compiles it, its code cached as a
    template's is."""
    env = environment()

    def compiled():
        parser = Parser(env, source, state="variable")
        try:
            expression = parser.parse_expression()
            if not parser.stream.eos:
                raise TemplateSyntaxError("chunk after expression", parser.stream.current.lineno, None, None)
            expression.set_environment(env)
        except TemplateSyntaxError:
            env.handle_exception(source=source)
        return env.compile(nodes.Template([nodes.Assign(nodes.Name("result", "store"), expression, lineno=1)],
                                          lineno=1))

    return TemplateExpression(_template(env, _code("expression", source, compiled)), True)


def _code(kind: str, source: str, compiled: Callable[[], CodeType]) -> CodeType:
    """The code of `source` compiled as `kind`, from the cache of compiled templates, else `compiled()` and put
    there."""
    cache, generator = _compiled()
    if cache is None:
        return compiled()
    name = f"{generator}:{kind}"  # an entry by generator, kind and source
    try:
        bucket = cache.get_bucket(environment(), name, source, source)
    except (OSError, EOFError, ValueError, pickle.UnpicklingError):  # a damaged entry: compiled again
        bucket = Bucket(environment(), cache.get_cache_key(name, source), cache.get_source_checksum(source))
    if bucket.code is None:
        bucket.code = compiled()
        if not sys.dont_write_bytecode:  # as Python writes no bytecode when asked not to
            try:
                cache.set_bucket(bucket)
            except OSError:  # a full disk: the next run compiles it again
                pass
    return bucket.code


@lru_cache(maxsize=1)
def _compiled() -> tuple:
    """The cache of compiled templates, Jinja's own (FileSystemBytecodeCache) in the user's cache folder
    (`$XDG_CACHE_HOME/muster/templates`, else `~/.cache/muster/templates`, made mode 0700), and the name its entries
    are filed under: the digest of what turns a template into code (this module's code generator, budget.py and
    Jinja's version), Python's version being in every entry besides. (None, "") where there is no such folder.
    Compiling the templates of a small game costs as much as laying its cards out; reading their code back, a few
    ms."""
    import jinja2
    from jinja2 import FileSystemBytecodeCache

    try:
        cache = FileSystemBytecodeCache(str(user_cache("templates")), pattern="muster-%s.cache")
        generator = hashlib.sha256(Path(__file__).read_bytes() + Path(budget.__file__).read_bytes()
                                   + jinja2.__version__.encode()).hexdigest()
    except (OSError, RuntimeError):
        return None, ""
    return cache, generator


def may_read(source: str, name: str) -> bool:
    """Whether a template may read `name`: true whenever the word appears at all, in a string too. Parsing the
    template to know for sure would cost as much again as compiling it."""
    return re.search(rf"\b{re.escape(name)}\b", source) is not None


def is_template(value) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


def render(source: str, context: dict) -> str:
    """`source` rendered with `context`; raises TemplateError (or SecurityError) on any problem."""
    return compile_template(source).render(context)


class TimeLimit(SecurityError):
    """Templates ran longer than TIME_LIMIT seconds: a loop without a useful end."""


_timing = threading.local()


@contextmanager
def time_limit(seconds: float | None = None):
    """Stops templates that run too long, by an alarm; where there is none (other threads, Windows), no limit.
    Within a time limit already running, another adds nothing: the stage's limit holds for all."""
    seconds = seconds or TIME_LIMIT
    if (getattr(_timing, "running", False) or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        yield
        return

    def expire(signum, frame):
        raise TimeLimit(f"templates ran for more than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    _timing.running = True
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        _timing.running = False


def failure(exc: BaseException, code: str = "template-error") -> tuple[str, str]:
    """What a template's failure says, in one line, and its finding code (`code` when it is none of the limits)."""
    if isinstance(exc, RecursionError):
        return "nested more deeply than a template may nest (a limit on templates)", "template-budget"
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    codes = ((TimeLimit, "time-limit"), (TemplateBudget, "template-budget"), (TooDeep, "template-budget"),
             (Forbidden, "template-forbidden"))
    return text, next((named for kind, named in codes if isinstance(exc, kind)), code)


def template_line(exc: BaseException) -> int | None:
    """The line of the template a failure happened on, when it says."""
    line = getattr(exc, "lineno", None)
    if line:
        return line
    import traceback  # a failure's: no template that works needs it

    frames = [frame for frame in traceback.extract_tb(exc.__traceback__) if frame.filename == "<template>"]
    return frames[-1].lineno if frames else None


__all__ = ["TemplateError", "SecurityError", "TimeLimit", "TemplateBudget", "Forbidden", "TooDeep", "compile_template",
           "compile_expression", "compiled_in", "environment", "failure", "is_template", "may_read", "render",
           "template_line", "time_limit"]
