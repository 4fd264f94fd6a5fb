#!/usr/bin/env python3
"""Drafts Docs/Reference.md rows for public declarations that have none yet.

   Scripts/reference-draft.py [FILE.swift ...]   (default: every library target's sources)

Prints, for each public type whose `### `Type`` section is missing from Docs/Reference.md, a section
with a row per member: its spelling (as ReferenceTests reads it), the first sentence of its doc
comment, and a call-shaped example built from its signature (the receiver named after the type,
`try`/`await` as the declaration says). Paste what it prints under the right heading and make each
example say what a user would write. ReferenceTests then holds the page equal to the sources.
"""
import glob, os, re, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DECL = re.compile(r'^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:public|open)\s+((?:(?:static|final|override|nonmutating|mutating|required|convenience|indirect|class|private\(set\))\s+)*)(func|var|let|init|subscript|struct|class|enum|protocol|actor)\b\s*([^\s(:<={]*)(.*)')
REQ = re.compile(r'^\s*((?:static\s+|mutating\s+)*)(func|var|init|subscript|associatedtype)\b\s*([^\s(:<={]*)(.*)')
EXT = re.compile(r'^\s*(?:public\s+)?extension\s+([\w.]+)')

def receiver(type_name):
    last = type_name.split(".")[-1]
    if last.endswith("ScriptProtocol") and last != "ScriptProtocol":
        return {"WebDAV": "webdav", "WebSocket": "webSocket"}.get(last[:-len("ScriptProtocol")], last[:-len("ScriptProtocol")].lower())
    if last.endswith("Command"):
        return "command"
    words = re.findall(r'[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+', last)
    word = (words[-1] if words else last)
    return word[0].lower() + word[1:] if word.upper() != word else word.lower()

def parameters(text):
    start = text.find("(")
    if start < 0:
        return []
    depth, current, parts = 0, "", []
    for ch in text[start + 1:]:
        if ch in "([": depth += 1
        if ch in ")]":
            if depth == 0: break
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current); current = ""
        else:
            current += ch
    parts.append(current)
    result = []
    for part in parts:
        head = part.split(":", 1)[0].split()
        if not head: continue
        label, name = head[0], head[-1]
        result.append((label, name))
    return result

def call(params):
    args = []
    for label, name in params:
        args.append(name if label == "_" else f"{label}: {name}")
    return "(" + ", ".join(args) + ")"

PROTOCOLS = set()

def scan(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    found, stack, depth, doc = {}, [], 0, []
    for i, line in enumerate(lines):
        s = line.strip()
        if s.startswith("///"):
            doc.append(s[3:].strip()); continue
        spi = s.startswith("@_spi")
        m, owner = DECL.match(line), (stack[-1] if stack else None)
        summary = re.split(r'(?<=\.)\s', " ".join(doc))[0] if doc else ""
        if owner and owner[2] and not owner[0].startswith("_spi") and depth == owner[1] + 1 and REQ.match(line) and not m:
            r = REQ.match(line)
            found.setdefault(owner[0], []).append(member(r.group(2), r.group(3), r.group(1), line, lines, i, owner[0], summary))
        elif m:
            mods, kind, name = m.group(1), m.group(2), m.group(3)
            hidden = spi or (owner and owner[0].startswith("_spi"))
            if kind in ("struct", "class", "enum", "protocol", "actor"):
                full = ("_spi" + name) if hidden else (owner[0] + "." + name if owner else name)
                if not hidden: found.setdefault(full, [])
                if kind == "protocol" and not hidden: PROTOCOLS.add(full)
                if "{" in line: stack.append((full, depth, kind == "protocol"))
            elif not hidden and (name or kind != "func"):  # operators (==, <) are their protocols' spellings
                found.setdefault(owner[0] if owner else "Functions", []).append(member(kind, name, mods, line, lines, i, owner[0] if owner else None, summary))
        elif owner and depth == owner[1] + 1 and s.startswith("case ") and not s.endswith(":"):
            body, plain, d = s[5:].split("=")[0], "", 0
            for ch in body:
                if ch == "(": d += 1
                elif ch == ")": d -= 1
                elif d == 0: plain += ch
            for part in [p.strip() for p in plain.split(",") if p.strip() and p.strip()[0].isalpha()]:
                found.setdefault(owner[0], []).append(("." + part, summary, f"case .{part}"))
        elif EXT.match(line) and "{" in line:
            stack.append((EXT.match(line).group(1), depth, False))
        if not s.startswith("@"): doc = []
        depth += line.count("{") - line.count("}")
        while stack and depth <= stack[-1][1]:
            stack.pop()
    return found

def member(kind, name, mods, line, lines, i, owner, summary):
    text, j = line[line.find(kind):], i
    while text.count("(") > text.count(")") and j + 1 < len(lines):
        j += 1; text += " " + lines[j].strip()
    signature = text.split("{")[0]
    prefix = ("try " if " throws" in signature else "") + ("await " if " async" in signature else "")
    static = "static" in mods or "class " in mods
    target = (owner or "").split(".")[-1] if static or not owner else receiver(owner)
    if kind in ("func", "init", "subscript"):
        params = parameters(text)
        labels = "".join(f"{l}:" for l, _ in params)
        base = name.split("<")[0] if kind == "func" else kind
        spelling = f"{base}({labels})"
        if kind == "init":
            example = f"{prefix}{owner}{call(params)}"
        elif kind == "subscript":
            example = f"{receiver(owner)}[{', '.join(n for _, n in params)}]"
        else:
            example = f"{prefix}{target + '.' if target else ''}{base}{call(params)}"
        return (spelling, summary, example)
    return (name, summary, f"{target + '.' if target else ''}{name}")

def main():
    files = sys.argv[1:] or [f for d in glob.glob(os.path.join(ROOT, "Sources", "*")) if os.path.basename(d) not in ("mockserver", "mockserver-bench", "CMockServerLinux")
                             for f in glob.glob(os.path.join(d, "**", "*.swift"), recursive=True)] + glob.glob(os.path.join(ROOT, "Responses", "*.swift"))
    reference = open(os.path.join(ROOT, "Docs", "Reference.md"), encoding="utf-8").read()
    documented = set(re.findall(r"^### `([^`]+)`", reference, re.M))
    types = {}
    for path in sorted(files):
        for type_name, members in scan(path).items():
            types.setdefault(type_name, []).extend(members)
    # A conformance's member without a doc comment of its own says what its protocol's says.
    protocols = {}
    for type_name, members in types.items():
        if type_name not in PROTOCOLS: continue
        for spelling, summary, _ in members:
            if summary: protocols.setdefault(spelling, (type_name, summary))
    for type_name, members in types.items():
        for index, (spelling, summary, example) in enumerate(members):
            if not summary and spelling in protocols and protocols[spelling][0] != type_name:
                owner, text = protocols[spelling]
                members[index] = (spelling, f"as `{owner}` asks: {text[0].lower() + text[1:]}", example)
    for type_name in sorted(types):
        if type_name in documented: continue
        print(f"### `{type_name}`\n\n| spelling | what it does | example |\n|---|---|---|")
        seen = set()
        for spelling, summary, example in types[type_name]:
            if spelling in seen: continue
            seen.add(spelling)
            print(f"| `{spelling}` | {summary.replace('|', '/')} | `{example}` |")
        print()

main()
