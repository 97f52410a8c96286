#!/usr/bin/env python3
"""Copies compiled code into the README and the DocC articles.

A region of a Swift file between `// snippet: NAME` and `// end snippet` is the source of
truth. In Markdown, a ```swift block directly after `<!-- snippet: NAME -->` is replaced with
that region, so documented code is always code the package compiles. The test suite checks
the result (ReadmeSnippetTests); run this script after changing a snippet's code.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
snippets = {}
for path in root.rglob("*.swift"):
    if any(part.startswith(".build") for part in path.parts):
        continue
    lines = path.read_text(encoding="utf-8").split("\n")
    name = None
    for line in lines:
        marker = re.match(r"\s*// snippet: (\S+)", line)
        if marker:
            name, body = marker.group(1), []
        elif name and re.match(r"\s*// end snippet", line):
            indent = min((len(l) - len(l.lstrip()) for l in body if l.strip()), default=0)
            snippets[name] = "\n".join(l[indent:] for l in body).strip("\n")
            name = None
        elif name:
            body.append(line)

documents = [root / "README.md"] + sorted(root.glob("Sources/*/*.docc/*.md"))
missing = []
for document in documents:
    text = document.read_text(encoding="utf-8")

    def replace(match):
        name = match.group(1)
        if name not in snippets:
            missing.append(f"{document.name}: {name}")
            return match.group(0)
        return f"<!-- snippet: {name} -->\n```swift\n{snippets[name]}\n```"

    updated = re.sub(r"<!-- snippet: (\S+) -->\n```swift\n(?:.*?\n)??```", replace, text, flags=re.S)
    if updated != text:
        document.write_text(updated, encoding="utf-8")
        print(f"updated {document.relative_to(root)}")
if missing:
    sys.exit("unknown snippets: " + ", ".join(missing))
