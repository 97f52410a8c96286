#!/usr/bin/env python3
"""Copies compiled code into the README, the guides, the DocC articles and the documentation
comments.

A region of a Swift file between `// snippet: NAME` and `// end snippet` is the source of
truth; regions may nest, and `// end snippet` closes the innermost one. In Markdown, a
```swift block directly after `<!-- snippet: NAME -->` is replaced with that region. In a
documentation comment of a Swift file under Sources, the same marker and block written as
`///` lines are replaced the same way, so documented code is always code the package
compiles. The test suite checks the result (ReadmeSnippetTests); run this script after
changing a snippet's code. With `--check` it writes nothing and fails when a document differs
from what it would write, as `.ci/check-generated` runs it.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
checking = "--check" in sys.argv[1:]
stale = []


def is_built(path):
    return not any(part.startswith(".build") for part in path.relative_to(root).parts)


snippets = {}
for path in filter(is_built, root.rglob("*.swift")):
    lines = path.read_text(encoding="utf-8").split("\n")
    open_regions = []
    for line in lines:
        marker = re.match(r"\s*// snippet: (\S+)", line)
        if marker:
            open_regions.append((marker.group(1), []))
        elif open_regions and re.match(r"\s*// end snippet", line):
            name, body = open_regions.pop()
            indent = min((len(l) - len(l.lstrip()) for l in body if l.strip()), default=0)
            snippets[name] = "\n".join(l[indent:] for l in body).strip("\n")
        else:
            for _, body in open_regions:
                body.append(line)

missing = []


def snippet(name, where):
    if name not in snippets:
        missing.append(f"{where}: {name}")
    return snippets.get(name)


def update(path, text):
    if text != path.read_text(encoding="utf-8"):
        if checking:
            stale.append(str(path.relative_to(root)))
            return
        path.write_text(text, encoding="utf-8")
        print(f"updated {path.relative_to(root)}")


# The README, the DocC articles, and the guides beside the examples and the benchmarks.
guides = [root / "README.md", root / "CONTRIBUTING.md", root / "Benchmarks" / "README.md"]
examples = sorted(root.glob("Examples/*/README.md"))
documents = guides + examples + sorted(root.glob("Sources/*/*.docc/*.md"))
for document in documents:

    def replace_in_markdown(match):
        code = snippet(match.group(1), document.name)
        if code is None:
            return match.group(0)
        return f"<!-- snippet: {match.group(1)} -->\n```swift\n{code}\n```"

    text = document.read_text(encoding="utf-8")
    update(document, re.sub(r"<!-- snippet: (\S+) -->\n```swift\n(?:.*?\n)??```", replace_in_markdown, text, flags=re.S))

for source in sorted(filter(is_built, (root / "Sources").rglob("*.swift"))):

    def replace_in_comment(match):
        indent, name = match.group(1), match.group(2)
        code = snippet(name, source.name)
        if code is None:
            return match.group(0)
        body = "".join(f"{indent}///{' ' + line if line else ''}\n" for line in code.split("\n"))
        return f"{indent}/// <!-- snippet: {name} -->\n{indent}/// ```swift\n{body}{indent}/// ```"

    text = source.read_text(encoding="utf-8")
    pattern = r"^([ \t]*)/// <!-- snippet: (\S+) -->\n\1/// ```swift\n(?:\1///.*\n)*?\1/// ```$"
    update(source, re.sub(pattern, replace_in_comment, text, flags=re.M))

if missing:
    sys.exit("unknown snippets: " + ", ".join(missing))
if stale:
    sys.exit("samples out of date in " + ", ".join(stale) + "; run python3 Scripts/sync-snippets.py")
if checking:
    print("Every documentation sample matches its snippet.")
