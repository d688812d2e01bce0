#!/usr/bin/env python3
"""Turns a sketch folder's .ino files into the one C++ file the Arduino IDE
compiles, as arduino-cli does (builder/sketch.go merges the tabs,
preprocessor/ctags.go adds prototypes). Hand-written because Debian packages
neither arduino-cli nor its patched ctags, and Hardware/sketch.mk builds offline.

usage: ino_sketch.py SKETCH_DIR OUT.cpp CXX [FLAG...]
  (CXX and FLAGs: the compiler and the flags the sketch is compiled with)

- NAME.ino (or NAME.pde) first, then the folder's other .ino files in byte
  order, each after `#line 1 "file"`; `#include <Arduino.h>` on top unless the
  main file includes it; a UTF-8 BOM dropped, line ends made \\n.
- As arduino-cli, the merged file is run through `CXX FLAGs -E` first (#if
  branches decided, macros such as ISR() expanded, a missing header reported
  as the IDE reports it) and only the lines from the .ino files are read.
- A prototype for each function defined at file scope (or in extern "C" { },
  then declared extern "C"), inserted before the main file's first function
  definition, each after a `#line` naming its definition, then a `#line` to
  resume. As arduino-cli, none for: functions in a class, struct or namespace;
  members defined outside (`Foo::bar`); a function already declared with the
  same text; a prototype holding `=` (default arguments: arduino-cli skips
  them, so calling one before its definition fails in the IDE too). Templates
  get one; `inline` and __attribute__ are left out, `static` kept. Prototypes
  go higher for a file-scope statement that passes a function as `&f` or `(f)`
  (TaskScheduler's `Task t(&cb);`).
"""
import os
import re
import subprocess
import sys
import tempfile

TOKEN = re.compile(r'''
    (?P<newline>\n)
  | (?P<space>[ \t\f\v\r]+|\\\n)
  | (?P<comment>//(?:\\\n|[^\n])*|/\*.*?(?:\*/|\Z))
  | (?P<string>(?:u8|[uUL])?R"(?P<delim>[^()\\\s]{0,16})\(.*?\)(?P=delim)"
              |(?:u8|[uUL])?"(?:\\.|[^"\\\n])*"?|(?:u8|[uUL])?'(?:\\.|[^'\\\n])*'?)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<number>\.?\d(?:[eEpP][+-]|[\w.'])*)
  | (?P<punct>::|->|&&|\|\||<<=?|>>=?|[-+*/%&|^!=<>]=|\+\+|--|.)
''', re.S | re.X)
# `# 12 "file" 1 3` (what -E writes) or `#line 12 "file"`; any other directive (#pragma) is skipped.
LINE_MARKER = re.compile(r'#\s*(?:line\s+)?(\d+)\s+"((?:\\.|[^"\\])*)"[^\n]*|#[^\n]*')
# Followed by ( but never a function's name.
NOT_NAMES = {
    'if', 'for', 'while', 'switch', 'return', 'sizeof', 'alignof', 'alignas', 'decltype',
    'noexcept', 'throw', 'static_assert', 'catch', 'operator', '__attribute__', '__declspec',
    'void', 'char', 'short', 'int', 'long', 'float', 'double', 'bool', 'signed', 'unsigned',
    'auto', 'const', 'volatile', 'new', 'delete', 'typeid', 'asm', '__asm__',
}
ATTRIBUTES = {'__attribute__', '__declspec'}  # left out of prototypes, as arduino-cli leaves them
TYPE_CALLS = {'decltype', 'alignas'}          # their ( ) are part of a return type
TYPE_PUNCT = {'*', '&', '&&', '::', '<', '>', '>>', ','}  # in a return type, besides words and numbers
STORAGE = {'static', 'inline', 'extern', '"C"'}           # not part of what is compared


class Token:
    def __init__(self, kind, text, path, line, spaced):
        self.kind, self.text, self.path, self.line = kind, text, path, line
        self.spaced = spaced  # whitespace or a comment before it


def tokens(preprocessed, sketch_paths):
    """The tokens of the .ino files' lines in the compiler's -E output, each
    with the file and line it came from (the line markers tell)."""
    path, line, pos, at_line_start, spaced = None, 1, 0, True, False
    while pos < len(preprocessed):
        if at_line_start and preprocessed[pos] == '#':
            match = LINE_MARKER.match(preprocessed, pos)
            if match.group(1):
                name = re.sub(r'\\(.)', r'\1', match.group(2))
                path, line = (name if name in sketch_paths else None), int(match.group(1)) - 1
            pos = match.end()
            continue
        match = TOKEN.match(preprocessed, pos)
        kind, text, pos = match.lastgroup, match.group(), match.end()
        if kind == 'newline':
            line, at_line_start, spaced = line + 1, True, True
        elif kind in ('space', 'comment'):
            line, spaced = line + text.count('\n'), True
        else:
            if path:
                yield Token(kind, text, path, line, spaced)
            line, at_line_start, spaced = line + text.count('\n'), False, False


def join(toks):
    """Tokens as one line, one space where the source had any."""
    return ''.join((' ' if t.spaced and n else '') + t.text for n, t in enumerate(toks))


def skip_group(toks, i):
    """Index after the balanced ( ) or < > opening at toks[i]."""
    closing = ')' if toks[i].text == '(' else '>'
    depth = 0
    for k in range(i, len(toks)):
        text = toks[k].text
        depth += {toks[i].text: 1, closing: -1, '>>': -2 if closing == '>' else 0}.get(text, 0)
        if depth <= 0:
            return k + 1
    return len(toks)


class Head:
    """What a file-scope head (the tokens before its `{` or `;`) declares."""
    def __init__(self, head, extern_c):
        self.path, self.line, self.text = head[0].path, head[0].line, join(head)
        self.name = None          # a function's name, or None
        self.counts = False       # a candidate for where prototypes go
        self.prototype = None     # what to declare, or None
        start = skip_group(head, 1) if head[0].text == 'template' and len(head) > 1 and head[1].text == '<' else 0
        depth, name_at = 0, None
        for k in range(start, len(head) - 1):
            if head[k].text == ':' and depth == 0:
                break  # a constructor's initializers
            depth += {'(': 1, ')': -1}.get(head[k].text, 0)
            if depth == 0 and head[k].kind == 'ident' and head[k].text not in NOT_NAMES and head[k + 1].text == '(':
                name_at = k
        if name_at is None:
            return
        self.name = head[name_at].text
        prefix = head[start:name_at]
        if prefix and prefix[-1].text == '::':
            return  # a member or a namespace's function, defined outside it
        self.counts = True
        kept = plain_type(prefix)
        if not kept:
            return  # no return type (a macro), or a macro call before it
        end = skip_group(head, name_at + 1)
        if end < len(head) and head[end].text in ('->', 'noexcept', 'throw'):
            end = len(head)  # part of its type: auto f() -> int
        toks = head[:start] + kept + head[name_at:end]
        named = len(toks) - (end - name_at) + 1
        text = join(toks[:named]) + join(toks[named:])  # name(, as arduino-cli writes it
        if extern_c and not text.startswith('extern "C"'):
            text = 'extern "C" ' + text
        self.prototype = text + ';'
        # Compared as arduino-cli compares: storage class and spaces aside.
        self.key = ''.join(t.text for t in toks if t.text not in STORAGE)


def plain_type(prefix):
    """PREFIX without `inline` and attributes if it is only a return type and
    storage class, else None."""
    kept, k = [], 0
    while k < len(prefix):
        t = prefix[k]
        if t.text in ATTRIBUTES | TYPE_CALLS and k + 1 < len(prefix) and prefix[k + 1].text == '(':
            end = skip_group(prefix, k + 1)
            kept += prefix[k:end] if t.text in TYPE_CALLS else []
            k = end
            continue
        if t.kind not in ('ident', 'number') and t.text not in TYPE_PUNCT and t.text != '"C"':
            return None
        if t.text != 'inline':
            kept.append(t)
        k += 1
    return kept if any(t.kind == 'ident' and t.text not in STORAGE for t in kept) else None


def assigns(head):
    """Whether HEAD has an `=` outside parentheses (then its { } initialize)."""
    depth = 0
    for t in head:
        depth += {'(': 1, ')': -1}.get(t.text, 0)
        if depth == 0 and t.text == '=':
            return True
    return False


def file_scope(toks):
    """(definitions, declarations) at file scope, as Heads: what precedes each
    `{` that opens a body, and each statement ending in `;`."""
    definitions, declarations = [], []
    scopes = []  # per open brace: 'extern_c', 'body' (function, class, namespace...),
                 # 'init' (of = { } or ({ })), 'inner' (inside those)
    head, parens = [], 0
    for t in toks:
        if any(s != 'extern_c' for s in scopes):
            in_init = 'init' in scopes
            if t.text == '{':
                scopes.append('inner')
            elif t.text == '}':
                scopes.pop()
            if in_init:
                head.append(t)  # an initializer stays part of its statement
            continue
        if t.text == '{':
            if parens or assigns(head):
                scopes.append('init')
                head.append(t)
                continue
            if [h.text for h in head] == ['extern', '"C"']:
                scopes.append('extern_c')
            else:
                if head:
                    definitions.append(Head(head, extern_c=bool(scopes)))
                scopes.append('body')
            head, parens = [], 0
        elif t.text == '}':
            if scopes:
                scopes.pop()
            head, parens = [], 0
        elif t.text == ';' and not parens:
            if head:
                declarations.append(Head(head, extern_c=bool(scopes)))
            head = []
        else:
            parens += {'(': 1, ')': -1}.get(t.text, 0)
            head.append(t)
    return definitions, declarations


def quote(path):
    return '"' + path.replace('\\', '\\\\').replace('"', '\\"') + '"'


def sketch_files(folder):
    """The main file, then the other .ino files, as arduino-cli orders them."""
    name = os.path.basename(os.path.normpath(folder))
    mains = [os.path.join(folder, name + ext) for ext in ('.ino', '.pde')
             if os.path.isfile(os.path.join(folder, name + ext))]
    if len(mains) != 1:
        sys.exit(f'ino_sketch.py: {folder} needs one {name}.ino (or {name}.pde), found {len(mains)}')
    others = sorted(os.path.join(folder, f) for f in os.listdir(folder)
                    if f.endswith(('.ino', '.pde')) and not f.startswith('.')
                    and os.path.join(folder, f) != mains[0] and os.path.isfile(os.path.join(folder, f)))
    return mains + others


def read_source(path):
    with open(path, encoding='utf-8', errors='surrogateescape', newline='') as f:
        text = f.read()
    return text.lstrip('\ufeff').replace('\r\n', '\n').replace('\r', '\n')


def merge(files):
    """The tabs as one source, as arduino-cli merges them, and the line of
    that text where the main file's line 1 is."""
    (main_path, main_source), out = files[0], []
    if not re.search(r'^\s*#\s*include\s*[<"]Arduino\.h[>"]', main_source, re.M):
        out.append('#include <Arduino.h>')
    for path, source in files:
        out += [f'#line 1 {quote(path)}'] + (source + '\n').split('\n')[:-1]
    return out, (2 if out[0].startswith('#include') else 1)


def preprocessed(merged, out_file, compiler):
    """The compiler's -E output for the merged source (written beside OUT.cpp, so
    #include "x.h" searches the same folders as when OUT.cpp is compiled)."""
    folder = os.path.dirname(os.path.abspath(out_file))
    with tempfile.NamedTemporaryFile('w', suffix='.cpp', dir=folder, delete=False,
                                     encoding='utf-8', errors='surrogateescape') as f:
        f.write('\n'.join(merged) + '\n')
    try:
        run = subprocess.run(compiler + ['-w', '-x', 'c++', '-E', f.name, '-o', '-'],
                             capture_output=True, text=True, errors='surrogateescape')
    finally:
        os.unlink(f.name)
    if run.returncode != 0:
        sys.stderr.write(run.stderr)
        missing = re.search(r'fatal error: ([\w./-]+\.h): No such file or directory', run.stderr)
        if missing:
            # Servo, LiquidCrystal and the like ship with the Arduino IDE, not with Debian's core.
            sys.exit(f'ino_sketch.py: {missing.group(1)} is no library here (this core bundles Wire, SPI, '
                     f'SoftwareSerial, EEPROM and HID): give its folder, e.g. LIBS=~/Arduino/libraries/'
                     f'{os.path.splitext(os.path.basename(missing.group(1)))[0]}')
        sys.exit(f'ino_sketch.py: the preprocessor failed on the sketch (exit {run.returncode})')
    return run.stdout


def prototypes(files, text):
    """The prototypes (Heads, in order) and the main file's line to insert them at."""
    definitions, declarations = file_scope(tokens(text, {path for path, _ in files}))
    declared = {d.key for d in declarations if d.prototype}
    wanted, seen = [], set()
    for d in definitions:
        if d.prototype and d.key not in declared and d.prototype not in seen and '=' not in d.prototype:
            seen.add(d.prototype)
            wanted.append(d)
    main = files[0][0]
    lines = [d.line for d in definitions if d.counts and d.path == main]
    if wanted:
        names = '|'.join(re.escape(d.name) for d in wanted)
        pointer = re.compile(r'&\s*(?:%s)\b|\(\s*(?:%s)\s*\)' % (names, names))
        lines += [d.line for d in declarations if d.path == main and pointer.search(d.text)]
    return wanted, min(lines, default=0)


def ino_cpp(folder, out_file, compiler):
    files = [(path, read_source(path)) for path in sketch_files(folder)]
    merged, main_at = merge(files)
    wanted, at = prototypes(files, preprocessed(merged, out_file, compiler))
    section = []
    for d in wanted:
        section += [f'#line {d.line} {quote(d.path)}', d.prototype]
    if section and at:
        section.append(f'#line {at} {quote(files[0][0])}')
    # No function in the main file: before it, as arduino-cli (its #line 1 resumes).
    insert = main_at + at - 1 if at else main_at - 1
    return '\n'.join(merged[:insert] + section + merged[insert:]) + '\n'


def main():
    if len(sys.argv) < 4:
        sys.exit('usage: ino_sketch.py SKETCH_DIR OUT.cpp CXX [FLAG...]')
    data = ino_cpp(sys.argv[1], sys.argv[2], sys.argv[3:]).encode('utf-8', 'surrogateescape')
    try:
        with open(sys.argv[2], 'rb') as f:
            if f.read() == data:
                return  # left alone, so make does not compile it again
    except FileNotFoundError:
        pass
    with open(sys.argv[2], 'wb') as f:
        f.write(data)


if __name__ == '__main__':
    main()
