"""JUnit XML: one test suite per file with findings, one failing test case per finding."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from itertools import groupby

from ...engine.diagnostics import FileReport
from .common import RenderOptions

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def render(reports: list[FileReport], options: RenderOptions) -> str:
    """The JUnit XML document; a run without findings is one passing test case."""
    root = ElementTree.Element("testsuites", name="hipify-guard")
    for filename, group in groupby((r for r in reports if r.diagnostics or r.errors), key=lambda r: r.filename):
        _suite(root, filename, [report for report in group])
    if len(root) == 0:
        suite = ElementTree.SubElement(root, "testsuite", name="hipify-guard", tests="1", failures="0", errors="0")
        ElementTree.SubElement(suite, "testcase", name="no findings", classname="hipify-guard")
    _count(root)
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


def _suite(root: ElementTree.Element, filename: str, reports: list[FileReport]) -> None:
    suite = ElementTree.SubElement(root, "testsuite", name=_clean(filename))
    for report in reports:
        for item in report.diagnostics:
            where = f"{item.location.row}:{item.location.column}"
            case = ElementTree.SubElement(suite, "testcase", name=_clean(f"{item.code} at {where}"),
                                          classname=_clean(filename), file=_clean(filename), line=str(item.location.row))
            failure = ElementTree.SubElement(case, "failure", type=item.code, message=_clean(item.message))
            failure.text = _clean(f"{item.filename}:{where}: {item.code} {item.message}")
        for message in report.errors:
            case = ElementTree.SubElement(suite, "testcase", name="hipify-guard", classname=_clean(filename))
            ElementTree.SubElement(case, "error", message=_clean(message.message)).text = _clean(message.message)
    suite.set("tests", str(len(suite)))
    suite.set("failures", str(sum(1 for case in suite if case.find("failure") is not None)))
    suite.set("errors", str(sum(1 for case in suite if case.find("error") is not None)))


def _count(root: ElementTree.Element) -> None:
    for key in ("tests", "failures", "errors"):
        root.set(key, str(sum(int(suite.get(key, "0")) for suite in root)))


def _clean(text: str) -> str:
    """Characters XML 1.0 cannot carry (control characters, lone surrogates) become U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)
