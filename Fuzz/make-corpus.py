#!/usr/bin/env python3
"""Writes the seed corpus in Corpus/: a document of every version of the fuzz target's five
types in JSON, XML property list and binary property list, XML property lists in every
encoding Foundation reads them in (and UTF-16 without the byte order mark it needs), XML
with the markup whose end the target's property list filter must find where Foundation
finds it (processing instructions, comments, CDATA, DOCTYPE, attributes), outlines nested
to the library's depth limit and one level past it, binary property lists that nest deep,
share arrays or contain themselves, and a few malformed documents. Every file fits in
run.sh's -max_len of 4096 bytes.

Some seeds are property lists that Foundation's readers cannot get through (bytes that are
not UTF-8 inside an <integer>, and for a type that reads them in full, an outline that contains
itself or arrays shared forty levels deep): the filter skips their property list decode, and a
run that crashed on one of them would show that the filter no longer does.

Run it again after changing the types in Sources/FuzzVersionedDecoding: python3 make-corpus.py
"""

import codecs
import json
import pathlib
import plistlib

CORPUS = pathlib.Path(__file__).resolve().parent / "Corpus"

# The fields of each version of Article (version at the root), TaggedNote (version in _meta),
# HeaderedNote (version in the first of its headers), UnwrappedNote (version in an optional
# _meta) and Outline (a tree of versioned parts), with the shapes that HeaderedNote's and
# UnwrappedNote's key paths would trap on. The library refuses HeaderedNote's spec, which keeps
# the version in an array, whatever the document holds.
DOCUMENTS = {
    "article-v0": {"title": "Ode", "words": ["to", "a", "nightingale"]},
    "outline-v1": {
        "version": 1, "title": "Odes",
        "children": [{"version": 1, "title": "Ode", "children": [{"version": 1, "children": []}]}],
    },
    "article-v1": {"version": 1, "title": "Ode", "paragraphs": [["My", "heart"], []], "draft": True},
    "article-v2": {"version": 2, "title": "Ode", "subtitle": "Ä", "paragraphs": [["aches"]], "draft": False},
    "article-v3": {
        "version": 3, "title": "Ode ✍️", "subtitle": "", "paragraphs": [["a", "b"], ["c"]],
        "state": "published", "revision": 7,
    },
    "tagged-note-v1": {"_meta": {"version": 1}, "text": "first"},
    "tagged-note-v2": {"_meta": {"version": 2, "editor": "ed"}, "text": "second", "tags": ["x", "y"]},
    "headered-note-v1": {"headers": [{"version": 1}], "text": "first"},
    "headered-note-v2": {"headers": [{"version": 2}, {"version": 1}], "text": "second", "pages": 3},
    "headered-note-empty": {"headers": [], "text": "none"},
    "unwrapped-note-v0": {"text": "before"},
    "unwrapped-note-v3": {"_meta": {"version": 3}, "text": "after", "title": "t"},
}

MALFORMED = {
    "malformed-empty.json": b"",
    "malformed-truncated.json": b'{"version":3,"title":"Ode","paragraphs":[["a"',
    "malformed-version-string.json": b'{"version":"3","title":"Ode"}',
    "malformed-version-fraction.json": b'{"version":1.5,"title":"Ode"}',
    "malformed-version-huge.json": b'{"version":99999999999999999999999,"title":"Ode"}',
    "malformed-version-too-new.json": b'{"version":4,"title":"Ode"}',
    "malformed-duplicate-version.json": b'{"version":2,"version":3,"title":"Ode","paragraphs":[],"draft":true}',
    "malformed-root-array.json": b"[1,2,3]",
    "malformed-nested.json": b"[" * 600 + b"]" * 600,
    "malformed-invalid-utf8.json": b'{"version":3,"title":"\xff\xfe"}',
    "malformed-truncated.plist": b'<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>version</key>',
    "malformed-openstep.plist": b'{ version = 3; title = Ode; }',
    # Foundation traps on six bytes that are not UTF-8 inside an <integer>; the filter skips it.
    "malformed-integer-not-utf8.plist": (
        b'<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>version</key><integer>'
        + b"\xff" * 6 + b"01</integer></dict></plist>"
    ),
    # Not malformed, but JSON only: property lists have no null.
    "unwrapped-note-null.json": b'{"_meta":null,"text":"before"}',
}


# Documents in the encodings Foundation reads XML property lists in: UTF-8 with a byte order
# mark, UTF-16 and UTF-32 after one (FE FF 00 00 is what Foundation takes for UTF-32LE's), and
# UTF-16 without one, which Foundation cannot read.
ENCODINGS = {
    "utf8-bom": lambda text: codecs.BOM_UTF8 + text.encode("utf-8"),
    "utf16le-bom": lambda text: codecs.BOM_UTF16_LE + text.replace("UTF-8", "UTF-16").encode("utf-16-le"),
    "utf16be-bom": lambda text: codecs.BOM_UTF16_BE + text.replace("UTF-8", "UTF-16").encode("utf-16-be"),
    "utf16le": lambda text: text.encode("utf-16-le"),
    "utf16be": lambda text: text.encode("utf-16-be"),
    "utf32be-bom": lambda text: b"\x00\x00\xfe\xff" + text.encode("utf-32-be"),
    "utf32le-foundation-bom": lambda text: b"\xfe\xff\x00\x00" + text.encode("utf-32-le"),
}


def xml(document: dict) -> str:
    return plistlib.dumps(document, fmt=plistlib.FMT_XML).decode("utf-8")


def markup_variants() -> dict:
    """XML property lists of Article v3 with markup that Foundation skips or reads in ways a
    naive scan does not: each is a place where the filter and Foundation could disagree."""
    article = xml(DOCUMENTS["article-v3"])
    root = '<plist version="1.0">'
    nested = lambda prefix, depth, closed=True: (
        '<?xml version="1.0" encoding="UTF-8"?>' + prefix + root
        + "<dict><key>version</key><integer>3</integer><key>paragraphs</key>"
        + "<array>" * depth + ("</array>" * depth + "</dict></plist>" if closed else "")
    )
    return {
        "xml-processing-instructions": article.replace(root, "<?pi > <!-- ?><?>?>" + root).replace(
            "<key>title</key>", "<?app a>b?><key>title</key>"),
        "xml-comments": article.replace(root, "<!--> <array> -->" + root).replace(
            "<key>title</key>", "<!-- <array><dict> --><!-- -- --><key>title</key>"),
        "xml-cdata": article.replace("<string>Ode ✍️</string>", "<string>Ode <![CDATA[<array>-->]]>✍️</string>"),
        "xml-entities": article.replace("<string>Ode ✍️</string>", "<string>Ode &lt;&amp;&#x41;&#65;&quot;</string>"),
        "xml-doctype-quoted": article.replace(
            '"http://www.apple.com/DTDs/PropertyList-1.0.dtd"', '"a>b" >'),
        "xml-doctype-subset": article.replace(
            '"http://www.apple.com/DTDs/PropertyList-1.0.dtd"', '[ <!ENTITY a "]>"> <!-- > --> ]'),
        "xml-attributes": article.replace("<dict>", '<dict a=">" b="/>">', 1),
        "xml-unterminated-comment": article.replace("<key>title</key>", "<!-- <key>title</key>"),
        "xml-unterminated-cdata": article.replace("<string>Ode ✍️</string>", "<string><![CDATA[Ode</string>"),
        # Nesting that Foundation reads, and then finds the wrong type in.
        "xml-nested-250": nested("", 250),
        # Nesting after markup that could hide it from a scan that ended the markup elsewhere
        # than Foundation does; openings only, to stay within -max_len.
        "xml-nested-450-after-pi": nested("<?pi > <!-- ?>", 450, closed=False) + "<!-- -->",
        "xml-nested-450-after-empty-comment": nested("", 450, closed=False).replace(
            root, root + "<!--><![CDATA[-->") + "]]>",
        "xml-nested-450-after-doctype": nested('<!DOCTYPE plist SYSTEM "a> ', 450, closed=False) + '">',
    }


def binary_plist(objects: list) -> bytes:
    """A binary property list of `objects`, the first at the top, written by hand so that it can
    nest deeper than a writer would, share arrays, or hold an array that contains itself. An
    object is a str, a small int, a list of object numbers (an array), or a dict of object
    numbers to object numbers."""
    reference_size = 2 if len(objects) > 255 else 1
    body = bytearray(b"bplist00")
    offsets = []

    def marker(high: int, count: int) -> None:
        if count < 15:
            body.append(high | count)
        else:
            body.extend([high | 0x0F, 0x11, count >> 8, count & 0xFF])

    def refs(numbers) -> None:
        for number in numbers:
            body.extend(number.to_bytes(reference_size, "big"))

    for item in objects:
        offsets.append(len(body))
        if isinstance(item, str):
            marker(0x50, len(item))
            body.extend(item.encode("ascii"))
        elif isinstance(item, int):
            body.extend([0x10, item])
        elif isinstance(item, list):
            marker(0xA0, len(item))
            refs(item)
        else:
            marker(0xD0, len(item))
            refs(item.keys())
            refs(item.values())
    offset_size = 2 if len(body) > 255 else 1
    table = len(body)
    for offset in offsets:
        body.extend(offset.to_bytes(offset_size, "big"))
    body.extend(bytes([0, 0, 0, 0, 0, 0, offset_size, reference_size]))
    body.extend(len(objects).to_bytes(8, "big") + (0).to_bytes(8, "big") + table.to_bytes(8, "big"))
    return bytes(body)


def binary_shapes() -> dict:
    """Outlines whose children nest 300 deep, share one array forty levels deep, or contain
    their own outline. Foundation's binary reader follows object numbers without remembering
    what it has read: the filter skips the last two, which a type that reads them in full would
    follow for 2**40 reads or for ever."""
    # Objects 0-4: the outline {"version": 1, "title": "t", "children": [...]}, its keys and values.
    head = [{1: 2, 3: 4, 5: 6}, "version", 1, "title", "t", "children"]
    nested = head + [[7]] + [[8 + level] for level in range(299)] + [[]]
    shared = head + [[7, 7]] + [[8 + level, 8 + level] for level in range(39)] + [[]]
    itself = [{1: 2, 3: 4, 5: 6}, "version", 1, "title", "t", "children", [0]]
    return {
        "outline-nested-300.binary.plist": binary_plist(nested),
        "outline-shared-8.binary.plist": binary_plist(shared_outline(8)),
        "outline-shared-40.binary.plist": binary_plist(shared),
        "outline-contains-itself.binary.plist": binary_plist(itself),
    }


def shared_outline(levels: int) -> list:
    """The objects of an outline whose every level lists the next level's outline twice: one
    object each, so reading it meets 2**levels - 1 outlines, all of which Outline decodes.
    Eight levels stay far below the filter's limit on shared arrays and dictionaries."""
    # Objects 1-5: the keys and values every outline shares; then each level's outline and its
    # children. Object 0 is the root outline, as binary_plist puts the first object on top.
    objects = [None, "version", 1, "title", "t", "children"]
    for level in range(levels):
        outline = 0 if level == 0 else len(objects)
        if level > 0:
            objects.append(None)
        children = len(objects)
        following = children + 1
        objects.append([following, following] if level + 1 < levels else [])
        objects[outline] = {1: 2, 3: 4, 5: children}
    return objects


def nested_outline(levels: int) -> dict:
    """An outline `levels` deep, the root included: each level below it puts `children` and an
    index on the coding path, so 65 levels reach maximumVersionedPartDepth (128) and 66 pass it."""
    outline = {"version": 1, "children": []}
    for _ in range(levels - 1):
        outline = {"version": 1, "children": [outline]}
    return outline


def main() -> None:
    CORPUS.mkdir(exist_ok=True)
    for name, document in DOCUMENTS.items():
        (CORPUS / f"{name}.json").write_bytes(json.dumps(document, ensure_ascii=False).encode("utf-8"))
        (CORPUS / f"{name}.xml.plist").write_bytes(plistlib.dumps(document, fmt=plistlib.FMT_XML))
        (CORPUS / f"{name}.binary.plist").write_bytes(plistlib.dumps(document, fmt=plistlib.FMT_BINARY))
    written = len(DOCUMENTS) * 3
    for name in ("article-v3", "tagged-note-v2"):
        for encoding, encode in ENCODINGS.items():
            (CORPUS / f"{name}.xml-{encoding}.plist").write_bytes(encode(xml(DOCUMENTS[name])))
            written += 1
    for name, text in markup_variants().items():
        (CORPUS / f"article-v3.{name}.plist").write_bytes(text.encode("utf-8"))
        written += 1
    # Nesting in UTF-16 is measured as in UTF-8: openings only, to stay within -max_len.
    opened = '<?xml version="1.0"?><?pi > <!-- ?><plist><array>' + "<array>" * 270
    for encoding in ("utf16le-bom", "utf16be-bom"):
        (CORPUS / f"xml-nested-270-{encoding}.plist").write_bytes(ENCODINGS[encoding](opened))
        written += 1
    for levels in (65, 66):
        document = nested_outline(levels)
        (CORPUS / f"outline-depth-{levels}.json").write_bytes(json.dumps(document, separators=(",", ":")).encode())
        (CORPUS / f"outline-depth-{levels}.binary.plist").write_bytes(plistlib.dumps(document, fmt=plistlib.FMT_BINARY))
        written += 2
    for name, data in binary_shapes().items():
        (CORPUS / name).write_bytes(data)
        written += 1
    for name, data in MALFORMED.items():
        (CORPUS / name).write_bytes(data)
        written += 1
    for path in CORPUS.iterdir():
        assert path.stat().st_size <= 4096, f"{path.name} is longer than run.sh's -max_len"
    print(f"wrote {written} files to {CORPUS}")


if __name__ == "__main__":
    main()
