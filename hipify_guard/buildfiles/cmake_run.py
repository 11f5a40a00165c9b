"""Run CMake commands as the build-file reader follows them: conditions, variables, definitions, sources.

`Run` is one file's (or function body's) commands in a scope: `if/elseif/else` arms and loops
give each command its Context (`cmake_conditions`), `return()` under a condition guards the rest
of the file, variables hold items (`cmake_values`), and each command records the definitions
and source mentions it makes in the `ProjectState`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import replace

from ..core.records import record
from .build_conditions import (
    CUDA_ALL,
    ROCM_ALL,
    TOP,
    UNKNOWN,
    Condition,
    Context,
    Holds,
    atom,
    both,
    compiler_holds,
    holds_of,
)
from .build_facts import Evidence
from .build_flags import flag_definitions, holds_flags, macro
from .cmake_conditions import parse_condition
from .cmake_state import CALLER, Function, PendingMention, ProjectState, Scope
from .cmake_syntax import Argument, Command
from .cmake_values import UNKNOWN_TEXT, Item, expand

MAX_ITEMS = 2000  # items followed per variable; past this, one vague item stands for the rest
_PLATFORM_COMMANDS = {"cuda_add_library": CUDA_ALL, "cuda_add_executable": CUDA_ALL, "cuda_compile": CUDA_ALL,
                      "cuda_compile_ptx": CUDA_ALL, "cuda_compile_fatbin": CUDA_ALL, "cuda_compile_cubin": CUDA_ALL,
                      "hip_add_library": ROCM_ALL, "hip_add_executable": ROCM_ALL}
_COMPILED = frozenset({"add_library", "add_executable", "target_sources"} | set(_PLATFORM_COMMANDS))
# Commands whose path arguments only show a file is used (they never make it one platform's) ...
_USES_ONLY = frozenset({
    "install", "set_source_files_properties", "set_property", "set_target_properties", "source_group",
    "configure_file", "add_custom_command", "add_custom_target", "execute_process", "add_test", "list", "file",
    "string", "get_filename_component", "get_source_file_property", "externalproject_add", "cmake_path",
    "set_directory_properties",
})
# ... and commands that never name a source the project compiles (not expanded at all).
_IGNORED = frozenset({
    "message", "find_package", "find_path", "find_file", "find_library", "find_program", "target_link_libraries",
    "include_directories", "target_include_directories", "link_directories", "link_libraries", "option",
    "cmake_minimum_required", "cmake_policy", "cmake_dependent_option", "enable_language", "mark_as_advanced",
    "get_property", "get_target_property", "get_directory_property", "get_cmake_property", "export",
    "add_dependencies", "target_link_options", "target_compile_features", "enable_testing", "math",
    "separate_arguments", "unset", "return", "break", "continue", "block", "endblock", "include_guard",
    "define_property", "set_tests_properties", "try_compile", "try_run", "fetchcontent_declare",
    "fetchcontent_makeavailable", "check_cxx_source_compiles", "check_c_source_compiles", "check_include_file",
    "check_include_file_cxx", "check_cxx_compiler_flag", "check_c_compiler_flag", "check_language",
    "check_symbol_exists", "check_function_exists", "check_library_exists", "check_type_size", "endfunction",
    "endmacro", "cmake_language", "variable_watch", "site_name", "build_command", "create_test_sourcelist",
    "load_cache", "ctest_build", "ctest_test", "configure_package_config_file",
    "write_basic_package_version_file", "add_link_options", "set_package_properties", "feature_summary",
})
_NAME_DEFINITIONS = frozenset({"add_compile_definitions", "target_compile_definitions"})
_FLAG_COMMANDS = frozenset({"add_definitions", "add_compile_options", "target_compile_options"})
_PROPERTY_COMMANDS = frozenset({"set_source_files_properties", "set_target_properties", "set_property",
                                "set_directory_properties"})
_DEFINITION_PROPERTIES = frozenset({"COMPILE_DEFINITIONS", "INTERFACE_COMPILE_DEFINITIONS"})
_FLAG_PROPERTIES = frozenset({"COMPILE_OPTIONS", "COMPILE_FLAGS", "INTERFACE_COMPILE_OPTIONS"})
_SCOPE_WORDS = frozenset({"PUBLIC", "PRIVATE", "INTERFACE", "BEFORE", "AFTER", "SYSTEM", "APPEND", "APPEND_STRING"})
_KEYWORD = re.compile(r"[A-Z][A-Z0-9_]*")
_HIP_TARGETS = frozenset({"hip::host", "hip::device"})  # HIP's CMake package targets that define the platform
_FATAL = frozenset({"FATAL_ERROR", "SEND_ERROR"})  # message() modes that stop the build being configured
_REFERENCE = re.compile(r"\$\{([A-Za-z0-9_]+)\}")
_HIPIFIED = (".cu", ".cuh", ".cpp", ".cc", ".h", ".hpp")  # the files hipify_torch converts


@record(frozen=False)
class _Block:
    """An open `if`, `while` or `foreach`: the context around it, its arms' conditions, the current arm."""

    kind: str
    outer: Context
    conditions: list[Condition]
    context: Context  # the current arm's
    condition: Condition  # the current arm's
    first: str  # the first arm, as shown


class Run:
    """The commands of one file (or function body) run in a scope."""

    def __init__(self, project: ProjectState, path: str, lines: list[str], scope: Scope, depth: int) -> None:
        self.project = project
        self.path = path
        self.lines = lines
        self.scope = scope
        self.depth = depth
        self.base = project.relative(scope.builtins["CMAKE_CURRENT_SOURCE_DIR"]) or ""
        # The folder whose targets its definitions reach (a function body's: the folder it is defined from).
        self.folder = scope.function.home if self.base == CALLER and scope.function else self.base
        self.stack: list[_Block] = []
        self.guards: list[tuple[Holds, str]] = []  # where the rest runs, after a return() or a stop under a condition

    def run(self, body: Sequence[Command], context: Context) -> None:
        """Run `body` under `context` (stops at an unconditional `return()` or when the budget is spent)."""
        base, index = context, 0
        while index < len(body):
            command = body[index]
            index += 1
            if self.project.budget <= 0:
                if self.project.budget == 0:
                    self.project.notes.append(f"{self.path}: too many CMake commands to follow; the rest left out")
                    self.project.budget -= 1
                return
            self.project.budget -= 1
            current = self._context(base)
            if command.name in ("function", "macro"):
                index = self._define_function(body, index, command)
            elif command.name == "return":
                if not self.stack:
                    return
                self.guards.append((holds_of(("and", tuple(self._arm_conditions())), negate=True),
                                    "after a return() above"))
            elif command.name == "message" and command.arguments and command.arguments[0].text in _FATAL:
                if not self._stop():
                    return
            elif not self._block(command, base):
                self.command(command, current)

    # -- blocks -------------------------------------------------------------------------------

    def _context(self, base: Context) -> Context:
        """The context of the next command: the current arm's, after any guarding `return()` or stop."""
        context = self.stack[-1].context if self.stack else base
        for holds, text in self.guards:
            context = context.within(holds, text)
        return context

    def _stop(self) -> bool:
        """`message(FATAL_ERROR ...)`: configuring stops where the innermost open `if` arm holds, so
        the rest of the arm around that `if` (or of the file) runs only where it does not: FBGEMM's
        `if(NOT FBGEMM_BUILD_VARIANT STREQUAL BUILD_VARIANT_CUDA) message(FATAL_ERROR ...) endif()`
        before `add_subdirectory(experimental/hstu)`. False when nothing after it runs at all."""
        if not self.stack:
            return False
        block = self.stack[-1]
        if block.kind != "if":
            return True
        passed = holds_of(block.condition, negate=True)
        # Builds that stop compile nothing: every build that goes on, of the platform it is known to be.
        guard = Holds(passed.platform, True) if passed.known else TOP
        if len(self.stack) == 1:
            self.guards.append((guard, "after a FATAL_ERROR above"))
        else:
            around = self.stack[-2]
            around.context = around.context.within(guard, "after a FATAL_ERROR above")
        return True

    def _arm_conditions(self) -> list[Condition]:
        """The conditions of the open `if`/`while` arms of this file."""
        return [block.condition for block in self.stack if block.kind in ("if", "while")]

    def _block(self, command: Command, base: Context) -> bool:
        """Handle if/elseif/else/endif and loops; False for any other command."""
        name = command.name
        outer = self.stack[-1].context if self.stack else base
        if name in ("if", "while"):
            condition = parse_condition(command.arguments, self.project.contrasted, self.project.set_true)
            text = f"{name}({_shown(command)})"
            arm = outer.within(holds_of(condition), text)
            self.stack.append(_Block(name, outer, [condition], arm, condition, text))
        elif name in ("elseif", "else") and self.stack and self.stack[-1].kind == "if":
            self._next_arm(command)
        elif name in ("endif", "endwhile", "endforeach"):
            opening = {"endif": "if", "endwhile": "while", "endforeach": "foreach"}[name]
            while self.stack:
                if self.stack.pop().kind == opening:
                    break
        elif name == "foreach":
            self._foreach(command, outer)
            self.stack.append(_Block("foreach", outer, [], outer, atom(TOP), ""))
        else:
            return False
        return True

    def _next_arm(self, command: Command) -> None:
        """`elseif()` (its own condition when that is known, else with the earlier arms' negations) or `else()`."""
        block = self.stack[-1]
        negations = tuple(("not", condition) for condition in block.conditions)
        if command.name == "elseif":
            own = parse_condition(command.arguments, self.project.contrasted, self.project.set_true)
            condition = own if holds_of(own).known else ("and", negations + (own,))
            text = f"elseif({_shown(command)}) after {block.first}"
            block.conditions.append(own)
        else:
            condition = ("and", negations)
            text = f"else() of {block.first}"
        block.condition, block.context = condition, block.outer.within(holds_of(condition), text)

    def _foreach(self, command: Command, context: Context) -> None:
        """Bind the loop variable to every item it takes (the body is read once)."""
        if not command.arguments:
            return
        rest = command.arguments[1:]
        if rest and rest[0].text == "RANGE":
            return
        items: list[Item] = []
        mode = "ITEMS"
        for argument in rest[1:] if rest and rest[0].text == "IN" else rest:
            if not argument.quoted and argument.text in ("LISTS", "ITEMS", "ZIP_LISTS"):
                mode = argument.text
            elif mode == "ITEMS":
                items.extend(self.expand(argument, context))
            elif mode == "LISTS":
                items.extend(self.scope.variables.get(argument.text, ()))
        self.scope.variables[command.arguments[0].text] = tuple(items)

    def _define_function(self, body: Sequence[Command], index: int, command: Command) -> int:
        """Register a function or macro and run its body once (for what it defines and how it uses keywords).

        The body runs under its own conditions only: it runs where it is called, not where it is
        defined (ginkgo's create_test.cmake is first included from cuda/test/, then called for
        every test), so what it does holds in some builds at most.
        """
        end, depth = index, 1
        closing = "end" + command.name
        while end < len(body) and depth:
            if body[end].name == command.name:
                depth += 1
            elif body[end].name == closing:
                depth -= 1
            end += 1
        if not command.arguments:
            return end
        name = command.arguments[0].text.lower()
        known = self.project.functions.get(name)
        if known is not None and known.path == self.path and known.body[:1] == body[index:index + 1]:
            return end  # the same definition again (its file included once more)
        parameters = frozenset(argument.text for argument in command.arguments[1:])
        function = Function(name, tuple(body[index:end - 1]), self.path, parameters, home=self.folder)
        self.project.functions[function.name] = function
        builtins = dict(self.scope.builtins, CMAKE_CURRENT_SOURCE_DIR=os.path.join(self.project.root, CALLER))
        scope = Scope(dict(self.scope.variables), builtins, self.scope, function)
        called = Context(UNKNOWN, (f"in {name}()",))
        Run(self.project, self.path, self.lines, scope, self.depth + 1).run(function.body, called)
        return end

    # -- commands -----------------------------------------------------------------------------

    def evidence(self, argument: Argument) -> Evidence:
        """The evidence of an argument's line."""
        return self.project.evidence(self.path, self.lines, argument.line)

    def expand(self, argument: Argument, context: Context) -> list[Item]:
        """The items an argument stands for here."""
        return expand(argument.text, argument.quoted, self.evidence(argument), context, self.base,
                      self.scope.variables, self.scope.builtins)

    def command(self, command: Command, context: Context) -> None:
        """Run one command that is not a block (a definition, a variable, a source list, a call ...)."""
        name, arguments = command.name, command.arguments
        if "hipify" in name or any("hipify" in argument.text.lower() for argument in arguments):
            self.project.hipify.append(self.project.evidence(self.path, self.lines, command.line))
            self._hipified(arguments, context)
        if self.scope.function is not None:
            self._record_keyword_uses(command, context)
        handler = _HANDLERS.get(name)
        if handler is not None:
            handler(self, arguments, context)
        elif name == "target_link_libraries":
            self._hip_targets(arguments, context)
        elif name in _NAME_DEFINITIONS or name in _FLAG_COMMANDS:
            self._definition_command(name, arguments, context)
        elif name in _PROPERTY_COMMANDS:
            self._properties(arguments, context)
        elif name in _IGNORED:
            return
        elif name in _USES_ONLY:
            for argument in arguments:
                for item in self.expand(argument, context):
                    self._mention(item, item.context.joined(context), supports=False)
        else:
            self._call(name, arguments, context)

    def _hipified(self, arguments: Sequence[Argument], context: Context) -> None:
        """hipify_torch's `hipify(CUDA_SOURCE_DIR <folder> HIP_SOURCE_DIR <copy>)`: the build compiles
        hipified copies, in another folder, of the folder's files (fastllm's `src/devices/cuda`), so
        where it runs, none of them is only the other platform's by the source lists. (Without a
        HIP_SOURCE_DIR the files are converted in place, and the build names them itself.)"""
        words = [argument.text for argument in arguments]
        if "HIP_SOURCE_DIR" not in words[:-1]:
            return
        for number, argument in enumerate(arguments[:-1]):
            if argument.text == "CUDA_SOURCE_DIR":
                for item in self.expand(arguments[number + 1], context):
                    for suffix in _HIPIFIED:
                        files = replace(item, text=f"{item.text.rstrip('/')}/*{suffix}", recursive=True)
                        self._mention(files, item.context.joined(context), supports=False)

    def _mention(self, item: Item, context: Context, supports: bool, stored: bool = False, folder: str = "") -> None:
        """Record a path the build names; in a function's body, where the function is called."""
        if self.scope.function is not None:
            self.scope.function.mentions.append(PendingMention(item, context, supports, stored, folder))
        else:
            self.project.mention(item, context, supports, stored, folder)

    def _call(self, name: str, arguments: Sequence[Argument], context: Context) -> None:
        """A command that may compile what it names: a built-in target command, a user or unknown function."""
        context = context.within(_PLATFORM_COMMANDS.get(name, TOP), f"{name}()")
        function = self.project.functions.get(name)
        if function is not None and function is not self.scope.function:  # what its body names, compiled here
            function.called = True
            self._relay(function.mentions, context)
        keywords = function.keywords if function else frozenset()
        section_context, section = context, None
        for argument in arguments:
            if not argument.quoted and _KEYWORD.fullmatch(argument.text) and (
                    argument.text in keywords or (not function and name not in _COMPILED)):
                section = argument.text
                section_context = self._section_context(function, section, context, name)
                continue
            items = self.expand(argument, section_context)
            listed = self.project.starlark.paths(self.base, argument.text) if argument.quoted and self.project.starlark else None
            if listed:  # kineto's `get_filelist("get_libkineto_cupti_srcs(with_api=False)" ...)`
                items = [Item(path, self.evidence(argument), section_context, "") for path in listed]
            for item in items:
                self._mention(item, item.context.joined(section_context), supports=True, folder=self.base)
            if section and holds_flags(section):
                self._flags(items, section_context)

    def _relay(self, mentions: list[PendingMention], context: Context) -> None:
        """What a called function's body names, named by this call under `context` (a body's
        mentions share a few contexts: each is joined with the call's once)."""
        root, base = self.project.root, self.base
        marker, absolute = os.path.join(root, CALLER), os.path.join(root, base) if base else root
        joined: dict[int, Context] = {}
        for pending in list(mentions):
            item, folder = pending.called_from(marker, base, absolute)
            within = joined.get(id(pending.context))
            if within is None:
                within = joined[id(pending.context)] = pending.context.joined(context)
            self._mention(item, within, pending.supports, pending.stored, folder)

    def _section_context(self, function: Function | None, section: str, context: Context, name: str) -> Context:
        holds = compiler_holds(section) if holds_flags(section) else TOP
        if function is not None and section in function.keywords:
            holds = both(holds, self.project.keyword_holds(function, section))
        return context.within(holds, f"{section} of {name}()")

    def _record_keyword_uses(self, command: Command, context: Context) -> None:
        """In a function's body: where its arguments are used (`${prefix_KEYWORD}`, `${ARGN}`, a parameter), and
        to which function's keyword they are passed on."""
        function = self.scope.function
        if command.name in _IGNORED or command.name in _USES_ONLY - {"list"}:
            return
        callee = self.project.functions.get(command.name)
        section = None
        for argument in command.arguments:
            if callee and not argument.quoted and argument.text in callee.keywords:
                section = argument.text
            for match in _REFERENCE.finditer(argument.text):
                name = match.group(1)
                if name in function.parameters or name == "ARGN" or name.startswith("ARGV"):
                    keyword = None
                elif function.prefix and name.startswith(function.prefix + "_") and name[len(function.prefix) + 1:] \
                        in function.keywords:
                    keyword = name[len(function.prefix) + 1:]
                else:
                    continue
                function.uses.setdefault(keyword, []).append((context.holds, callee and callee.name, section))

    def _definition_command(self, name: str, arguments: Sequence[Argument], context: Context) -> None:
        """`add_definitions`, `add_compile_definitions`, `target_compile_definitions`, `*_compile_options`."""
        skip = 1 if name.startswith("target_") else 0
        items = [item for argument in arguments[skip:] if argument.quoted or argument.text not in _SCOPE_WORDS
                 for item in self.expand(argument, context)]
        if name in _NAME_DEFINITIONS:
            for item in items:
                found = macro(item.text[2:] if item.text.startswith("-D") else item.text)
                if found:  # (an unknown value, `X=${ARCH}`, is a definition whose value is not known)
                    self.project.define(*found, item.context.joined(context), item.evidence, self.folder)
        else:
            self._flags(items, context)

    def _hip_targets(self, arguments: Sequence[Argument], context: Context) -> None:
        """`target_link_libraries(T ... hip::host|hip::device ...)`: HIP's package gives T's compiles
        `__HIP_PLATFORM_AMD__=1` on ROCm (hip-config-amd.cmake, ROCm 4.2 and newer; a HIP build for
        NVIDIA GPUs gets `__HIP_PLATFORM_NVIDIA__` instead), so only ROCm builds get it."""
        keyword = None
        for argument in arguments[1:]:
            if argument.text in ("PUBLIC", "PRIVATE", "INTERFACE", "LINK_PUBLIC", "LINK_PRIVATE", "LINK_INTERFACE_LIBRARIES"):
                keyword = argument.text
            elif argument.text in _HIP_TARGETS and keyword not in ("INTERFACE", "LINK_INTERFACE_LIBRARIES"):
                evidence = self.evidence(argument)
                self.project.define("__HIP_PLATFORM_AMD__", "1", context.within(ROCM_ALL, f"links {argument.text}"),
                                    evidence, self.folder)
                return

    def _flags(self, items: Sequence[Item], context: Context) -> None:
        """The `-D` words among `items` (a `-D NAME` pair is read with its second word's evidence)."""
        for index, item in enumerate(items):
            text = item.text + (" " + items[index + 1].text if item.text.split()[-1:] in (["-D"], ["/D"])
                                and index + 1 < len(items) else "")
            for name, value in flag_definitions([text]):
                self.project.define(name, value, item.context.joined(context), item.evidence, self.folder)

    def _properties(self, arguments: Sequence[Argument], context: Context) -> None:
        """`set_*_properties` / `set_property`: COMPILE_DEFINITIONS and flags properties; the files they name."""
        texts = [argument.text for argument in arguments]
        for index, argument in enumerate(arguments):
            for item in self.expand(argument, context):
                self._mention(item, item.context.joined(context), supports=False)
            if argument.quoted or index + 1 >= len(arguments):
                continue
            if argument.text in _DEFINITION_PROPERTIES or argument.text in _FLAG_PROPERTIES:
                values = self._property_values(arguments, index + 1, texts)
                items = [item for value in values for item in self.expand(value, context)]
                if argument.text in _DEFINITION_PROPERTIES:
                    for item in items:
                        found = macro(item.text)
                        if found:
                            self.project.define(*found, item.context.joined(context), item.evidence, self.folder)
                else:
                    self._flags(items, context)

    @staticmethod
    def _property_values(arguments: Sequence[Argument], start: int, texts: list[str]) -> Sequence[Argument]:
        """The values of a property: to the end for `set_property(... PROPERTY P values)`, else the next argument."""
        if start >= 2 and texts[start - 2] == "PROPERTY":
            return arguments[start:]
        return arguments[start:start + 1]

    # -- variables ----------------------------------------------------------------------------

    def _variable_name(self, argument: Argument, context: Context) -> str | None:
        """The variable an argument names (`${prefix}_SRCS` when that expands to one text), else None."""
        if "${" not in argument.text:
            return argument.text
        items = self.expand(argument, context)
        return items[0].text if len(items) == 1 and not items[0].vague else None

    def _store(self, name: str, items: Sequence[Item], context: Context, replace: bool,
               scope: Scope | None = None) -> None:
        """Set or extend a variable (conditional sets keep the old items too: both may hold)."""
        scope = scope or self.scope
        old = () if replace and context.holds == TOP else scope.variables.get(name, ())
        seen = {_identity(item) for item in old}
        placed = []
        for item in items:  # an item already there holds at least where this copy would
            if _identity(item) not in seen:
                seen.add(_identity(item))
                placed.append(Item(item.text, item.evidence, item.context.joined(context), item.base, item.recursive,
                                   item.vague))
        if len(old) + len(placed) > MAX_ITEMS:
            placed = placed[:max(0, MAX_ITEMS - len(old))] + [Item(UNKNOWN_TEXT, placed[-1].evidence, context, "",
                                                                   vague=True)]
        scope.variables[name] = tuple(old) + tuple(placed)
        for item in placed:
            self._mention(item, item.context, supports=True, stored=True, folder=self.base)
        if holds_flags(name):
            self._flags(placed, context.within(compiler_holds(name), f"flags {name}"))

    def set_(self, arguments: Sequence[Argument], context: Context) -> None:
        """`set(NAME values... [CACHE ...] [PARENT_SCOPE])`."""
        if not arguments:
            return
        name = self._variable_name(arguments[0], context)
        values = list(arguments[1:])
        scope = self.scope
        if values and not values[-1].quoted and values[-1].text == "PARENT_SCOPE":
            values.pop()
            scope = self.scope.parent
        texts = [value.text for value in values]
        if "CACHE" in texts:
            values = values[:texts.index("CACHE")]
        if name is None or scope is None:
            return
        items = [item for value in values for item in self.expand(value, context)]
        self._store(name, items, context, replace=True, scope=scope)
        self.project.record_truth(name, items, context)

    def list_(self, arguments: Sequence[Argument], context: Context) -> None:
        """`list(APPEND|PREPEND|INSERT|TRANSFORM ...)`; what other operations read counts as used."""
        if len(arguments) < 2:
            return
        operation, name = arguments[0].text, self._variable_name(arguments[1], context)
        if name is None:
            return
        rest = arguments[3:] if operation == "INSERT" else arguments[2:]
        if operation in ("APPEND", "PREPEND", "INSERT"):
            self._store(name, [item for value in rest for item in self.expand(value, context)], context, replace=False)
        elif operation == "TRANSFORM" and len(arguments) > 3 and arguments[2].text in ("PREPEND", "APPEND"):
            self._transform(name, arguments, context)
        elif operation not in ("REMOVE_ITEM", "REMOVE_AT", "REMOVE_DUPLICATES", "FILTER", "SORT", "REVERSE"):
            for argument in rest:  # LENGTH, GET, JOIN ...: what they read is a use
                for item in self.expand(argument, context):
                    self._mention(item, item.context.joined(context), supports=False)

    def _transform(self, name: str, arguments: Sequence[Argument], context: Context) -> None:
        """`list(TRANSFORM NAME PREPEND|APPEND text)`."""
        affix = self.expand(arguments[3], context)
        if len(affix) != 1 or affix[0].vague or "OUTPUT_VARIABLE" in [a.text for a in arguments[4:]]:
            return
        text = affix[0].text
        prepend = arguments[2].text == "PREPEND"
        self.scope.variables[name] = tuple(
            Item(text + item.text if prepend else item.text + text, item.evidence, item.context, item.base,
                 item.recursive, item.vague) for item in self.scope.variables.get(name, ()))

    def string_(self, arguments: Sequence[Argument], context: Context) -> None:
        """`string(APPEND NAME text...)` (flags strings)."""
        if len(arguments) > 2 and arguments[0].text == "APPEND":
            name = self._variable_name(arguments[1], context)
            if name is not None:
                items = [item for value in arguments[2:] for item in self.expand(value, context)]
                self._store(name, items, context, replace=False)

    def file_(self, arguments: Sequence[Argument], context: Context) -> None:
        """`file(GLOB|GLOB_RECURSE NAME [options] patterns...)`: the patterns, as globs."""
        if len(arguments) < 2 or arguments[0].text not in ("GLOB", "GLOB_RECURSE"):
            return
        recursive = arguments[0].text == "GLOB_RECURSE"
        name, patterns, skip = arguments[1].text, [], 0
        for argument in arguments[2:]:
            if skip:
                skip -= 1
            elif not argument.quoted and argument.text in ("LIST_DIRECTORIES", "RELATIVE"):
                skip = 1
            elif argument.quoted or argument.text not in ("CONFIGURE_DEPENDS", "FOLLOW_SYMLINKS"):
                patterns.extend(self.expand(argument, context))
        items = [Item(item.text, item.evidence, item.context, item.base, recursive, item.vague) for item in patterns]
        self._store(name, items, context, replace=True)

    def add_subdirectory(self, arguments: Sequence[Argument], context: Context) -> None:
        """Run `dir/CMakeLists.txt` in a child scope, under this context."""
        items = self.expand(arguments[0], context) if arguments else []
        if len(items) != 1 or items[0].vague:
            return
        base = self.scope.builtins["CMAKE_CURRENT_SOURCE_DIR"]
        folder = self.project.relative(os.path.join(base, items[0].text))
        if folder is None or folder.startswith(CALLER):  # (in a function's body: not followed)
            return
        path = f"{folder}/CMakeLists.txt" if folder else "CMakeLists.txt"
        self.project.subdirectories.append((folder, context.holds.platform, self.evidence(arguments[0])))
        if path in self.project.files:
            scope = self.project.file_scope(folder, self.scope)
            self.project.run_file(path, scope, context, self.depth + 1)

    def include(self, arguments: Sequence[Argument], context: Context) -> None:
        """Run an included file or module in this scope, under this context."""
        items = self.expand(arguments[0], context) if arguments else []
        if len(items) != 1 or items[0].vague:
            return
        path = self.project.module(items[0].text, self.scope)
        if path is None:
            return
        folder = os.path.dirname(path)
        builtins = dict(self.scope.builtins, CMAKE_CURRENT_LIST_DIR=os.path.join(self.project.root, folder))
        scope = Scope(self.scope.variables, builtins, self.scope.parent, self.scope.function)
        self.project.run_file(path, scope, context, self.depth + 1)

    def project_(self, arguments: Sequence[Argument], context: Context) -> None:
        """`project(NAME)`: PROJECT_SOURCE_DIR and NAME_SOURCE_DIR are this folder."""
        if arguments:
            here = self.scope.builtins["CMAKE_CURRENT_SOURCE_DIR"]
            self.scope.builtins.update({"PROJECT_SOURCE_DIR": here, f"{arguments[0].text}_SOURCE_DIR": here})

    def parse_arguments(self, arguments: Sequence[Argument], context: Context) -> None:
        """`cmake_parse_arguments([PARSE_ARGV n] prefix options one-value multi-value ...)` in a function."""
        function = self.scope.function
        texts = [argument.text for argument in arguments]
        if function is None or len(texts) < 4:
            return
        start = 2 if texts[0] == "PARSE_ARGV" else 0
        if len(texts) < start + 4:
            return
        lists = [self._keyword_list(argument, context) for argument in arguments[start + 1:start + 4]]
        function.prefix = texts[start]
        function.keywords = frozenset(word for words in lists for word in words)

    def _keyword_list(self, argument: Argument, context: Context) -> list[str]:
        """The keywords an argument lists (`"SRCS;CUDA_SRCS"` quoted, or a variable's items)."""
        return [word for item in self.expand(argument, context) if not item.vague
                for word in item.text.split(";") if word]


def _identity(item: Item) -> tuple:
    """What makes two items the same element (their contexts aside)."""
    return item.text, item.evidence, item.base, item.recursive, item.vague


def _shown(command: Command) -> str:
    """A condition's arguments as the reader shows them (shortened)."""
    text = " ".join(f'"{a.text}"' if a.quoted else a.text for a in command.arguments)
    return text if len(text) <= 100 else text[:97] + "..."


_HANDLERS = {
    "set": Run.set_, "list": Run.list_, "string": Run.string_, "file": Run.file_,
    "add_subdirectory": Run.add_subdirectory, "include": Run.include, "project": Run.project_,
    "cmake_parse_arguments": Run.parse_arguments,
}
