"""A small HTML tree for the web tests (standard library only): parse a page, find elements by
tag, class and attributes, read their text. Enough to check what a page shows without a
browser; the browser tests check what replay.js draws."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)
    parent: Node | None = None

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def iter(self) -> Iterator[Node]:
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None,
                 **attrs: str | bool) -> list[Node]:
        return [n for n in self.iter() if _matches(n, tag, cls, attrs)]

    def find(self, tag: str | None = None, cls: str | None = None, **attrs: str | bool) -> Node:
        found = self.find_all(tag, cls, **attrs)
        if not found:
            raise AssertionError(f"no <{tag or '*'} class={cls} {attrs}> found")
        return found[0]

    def text(self) -> str:
        parts: list[str] = []
        for child in self.children:
            parts.append(child if isinstance(child, str) else child.text())
        return "".join(parts)

    def words(self) -> str:
        return " ".join(self.text().split())

    def cards(self) -> list[str]:
        """The card tokens drawn inside this element, in order."""
        return [n.attrs["data-card"] for n in self.find_all("li", "card") if "data-card" in n.attrs]


def _matches(node: Node, tag: str | None, cls: str | None, attrs: dict[str, str | bool]) -> bool:
    if tag is not None and node.tag != tag:
        return False
    if cls is not None and cls not in node.classes:
        return False
    for name, value in attrs.items():
        key = name.replace("_", "-")
        if value is True:
            if key not in node.attrs:
                return False
        elif value is False:
            if key in node.attrs:
                return False
        elif node.attrs.get(key) != value:
            return False
    return True


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v if v is not None else "" for k, v in attrs}, parent=self.stack[-1])
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v if v is not None else "" for k, v in attrs}, parent=self.stack[-1])
        self.stack[-1].children.append(node)

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, 0, -1):
            if self.stack[index].tag == tag:
                if index != len(self.stack) - 1:
                    unclosed = [n.tag for n in self.stack[index + 1:]]
                    raise AssertionError(f"</{tag}> closes unclosed {unclosed}")
                del self.stack[index:]
                return
        raise AssertionError(f"</{tag}> without an open <{tag}>")

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(html: str | bytes) -> Node:
    """The page as a tree. Fails on mismatched end tags, which would reshape the page in a
    browser (for example a list inside a paragraph)."""
    builder = _Builder()
    builder.feed(html.decode() if isinstance(html, bytes) else html)
    builder.close()
    if len(builder.stack) != 1:
        raise AssertionError(f"unclosed elements: {[n.tag for n in builder.stack[1:]]}")
    _check_content_model(builder.root)
    return builder.root


# Elements that an HTML parser closes implicitly when these blocks start inside them.
_BLOCKS = {"div", "ul", "ol", "dl", "table", "form", "section", "header", "footer", "nav",
           "figure", "blockquote", "pre", "h1", "h2", "h3", "h4", "p"}


def _check_content_model(root: Node) -> None:
    for node in root.iter():
        if node.tag == "p":
            inner = [n.tag for n in node.iter() if n.tag in _BLOCKS]
            if inner:
                raise AssertionError(f"<p> holds block elements {inner}: {node.words()[:80]!r}")


def where(pred: Callable[[Node], bool], root: Node) -> list[Node]:
    return [n for n in root.iter() if pred(n)]
