#!/usr/bin/env python3
"""Writes the seed corpus in Corpus/: a document of every version of the fuzz target's two
types in JSON, XML property list and binary property list, and a few malformed documents.

Run it again after changing the types in Sources/FuzzVersionedDecoding: python3 make-corpus.py
"""

import json
import pathlib
import plistlib

CORPUS = pathlib.Path(__file__).resolve().parent / "Corpus"

# The fields of each version of Article (version at the root) and TaggedNote (version in _meta).
DOCUMENTS = {
    "article-v0": {"title": "Ode", "words": ["to", "a", "nightingale"]},
    "article-v1": {"version": 1, "title": "Ode", "paragraphs": [["My", "heart"], []], "draft": True},
    "article-v2": {"version": 2, "title": "Ode", "subtitle": "Ä", "paragraphs": [["aches"]], "draft": False},
    "article-v3": {
        "version": 3, "title": "Ode ✍️", "subtitle": "", "paragraphs": [["a", "b"], ["c"]],
        "state": "published", "revision": 7,
    },
    "tagged-note-v1": {"_meta": {"version": 1}, "text": "first"},
    "tagged-note-v2": {"_meta": {"version": 2, "editor": "ed"}, "text": "second", "tags": ["x", "y"]},
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
}


def main() -> None:
    CORPUS.mkdir(exist_ok=True)
    for name, document in DOCUMENTS.items():
        (CORPUS / f"{name}.json").write_bytes(json.dumps(document, ensure_ascii=False).encode("utf-8"))
        (CORPUS / f"{name}.xml.plist").write_bytes(plistlib.dumps(document, fmt=plistlib.FMT_XML))
        (CORPUS / f"{name}.binary.plist").write_bytes(plistlib.dumps(document, fmt=plistlib.FMT_BINARY))
    for name, data in MALFORMED.items():
        (CORPUS / name).write_bytes(data)
    print(f"wrote {len(DOCUMENTS) * 3 + len(MALFORMED)} files to {CORPUS}")


if __name__ == "__main__":
    main()
