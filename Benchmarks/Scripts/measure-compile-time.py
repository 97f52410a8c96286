#!/usr/bin/env python3
"""Times a release build of a long version chain against the same types as plain Codable.

Run it from the Benchmarks folder (it takes a few minutes on two cores):

    python3 Scripts/measure-compile-time.py [versions] [rebuilds]

It writes two throwaway packages in a temporary folder, each with `versions` one-field types:
- versioned: a chain V1 ... Vn of VersionedCodable types, each migrating from the one before,
  depending on this checkout of the package, and a program that decodes the newest;
- plain: the same types as plain Codable, listed in an array and decoded and encoded by index,
  so that the optimizer keeps every type's coding code, as it must for a chain.

Each package is built once (dependencies included), then its program is touched and rebuilt
`rebuilds` times. It prints the fastest rebuild of each: the time of compiling the types alone.
"""

import pathlib
import subprocess
import sys
import tempfile
import time

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent.parent


def versioned_source(count: int) -> str:
    types = []
    for number in range(1, count + 1):
        previous = "NothingEarlier" if number == 1 else f"V{number - 1}"
        migration = "" if number == 1 else (
            f"\n    init(value: Int) {{ self.value = value }}"
            f"\n    init(from old: V{number - 1}) throws {{ value = old.value + 1 }}"
        )
        types.append(
            f"struct V{number}: VersionedCodable {{\n"
            f"    static let version: Int? = {number}\n"
            f"    typealias PreviousVersion = {previous}\n"
            f"    var value: Int{migration}\n}}\n"
        )
    program = (
        'let document = Data(#"{"version": 1, "value": 0}"#.utf8)\n'
        f"let newest = try JSONDecoder().decode(versioned: V{count}.self, from: document)\n"
        "print(newest.value)\n"
    )
    return "import Foundation\nimport VersionedCodable\n\n" + "\n".join(types) + "\n" + program


def plain_source(count: int) -> str:
    types = "\n".join(f"struct V{number}: Step {{\n    var value: Int\n}}\n" for number in range(1, count + 1))
    listed = ", ".join(f"V{number}.self" for number in range(1, count + 1))
    program = (
        f"let types: [any Step.Type] = [{listed}]\n"
        "let index = Int(CommandLine.arguments.last ?? \"\") ?? 0\n"
        'let value = try JSONDecoder().decode(types[index], from: Data(#"{"value": 0}"#.utf8))\n'
        "print(value.value, try JSONEncoder().encode(value).count)\n"
    )
    return "import Foundation\n\nprotocol Step: Codable {\n    var value: Int { get }\n}\n\n" + types + "\n" + program


def manifest(dependency: bool) -> str:
    if not dependency:
        return (
            "// swift-tools-version:6.0\nimport PackageDescription\n\n"
            'let package = Package(name: "Chain", targets: [.executableTarget(name: "Chain")])\n'
        )
    return (
        "// swift-tools-version:6.0\nimport PackageDescription\n\n"
        "let package = Package(\n"
        '    name: "Chain",\n'
        f'    dependencies: [.package(path: "{REPOSITORY}")],\n'
        "    targets: [\n"
        "        .executableTarget(\n"
        '            name: "Chain",\n'
        '            dependencies: [.product(name: "VersionedCodable", package: "{name}")]\n'
        "        )\n"
        "    ]\n"
        ")\n"
    ).replace("{name}", REPOSITORY.name)


def build(folder: pathlib.Path) -> None:
    result = subprocess.run(
        ["swift", "build", "-c", "release"], cwd=folder, capture_output=True, text=True
    )
    if result.returncode != 0:
        sys.exit(f"build of {folder.name} failed:\n{result.stdout}{result.stderr}")


def fastest_rebuild(folder: pathlib.Path, rebuilds: int) -> float:
    build(folder)
    program = folder / "Sources" / "Chain" / "main.swift"
    times = []
    for _ in range(rebuilds):
        program.touch()
        start = time.monotonic()
        build(folder)
        times.append(time.monotonic() - start)
    return min(times)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rebuilds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    if count < 2 or rebuilds < 1:
        sys.exit("usage: measure-compile-time.py [versions >= 2] [rebuilds >= 1]")
    with tempfile.TemporaryDirectory() as scratch:
        results = {}
        for name, source, dependency in (
            ("versioned", versioned_source(count), True),
            ("plain", plain_source(count), False),
        ):
            folder = pathlib.Path(scratch) / name
            (folder / "Sources" / "Chain").mkdir(parents=True)
            (folder / "Package.swift").write_text(manifest(dependency), encoding="utf-8")
            (folder / "Sources" / "Chain" / "main.swift").write_text(source, encoding="utf-8")
            results[name] = fastest_rebuild(folder, rebuilds)
            print(f"{name}: {count} types compile in {results[name]:.1f} s (release, fastest of {rebuilds})")
        print(f"versioned vs plain: {results['versioned'] / results['plain']:.2f}x")


if __name__ == "__main__":
    main()
