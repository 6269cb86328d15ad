#!/usr/bin/env python3
"""Keeps po/POTFILES.in complete and po/de.po a full translation.

Every source, UI and data file with a translatable string must be listed in
POTFILES.in, every listed file must exist, and de.po must translate every
message xgettext extracts from them (nothing missing, nothing fuzzy).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

root = sys.argv[1]
failed = False


def fail(message):
    global failed
    print('FAIL:', message)
    failed = True


with open(os.path.join(root, 'po', 'POTFILES.in'), encoding='utf-8') as f:
    listed = [line.strip() for line in f if line.strip() and not line.startswith('#')]

for path in listed:
    if not os.path.exists(os.path.join(root, path)):
        fail(f'po/POTFILES.in lists {path}, which does not exist')

c_marker = re.compile(r'(?<![A-Za-z0-9_])(?:_|N_|C_|NC_|g_dngettext|ngettext)\s*\(\s*"')
needed = []
for top in ('src', 'ui', 'data'):
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
        for name in filenames:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            if name.endswith('.c') or name.endswith('.h'):
                with open(path, encoding='utf-8', errors='replace') as f:
                    if c_marker.search(f.read()):
                        needed.append(rel)
            elif name.endswith('.ui'):
                with open(path, encoding='utf-8') as f:
                    if 'translatable="yes"' in f.read():
                        needed.append(rel)
            elif name.endswith(('.desktop.in', '.metainfo.xml.in', '.gschema.xml')):
                needed.append(rel)

for rel in sorted(needed):
    if rel not in listed:
        fail(f'{rel} has translatable strings but is missing from po/POTFILES.in')

xgettext = shutil.which('xgettext')
msgfmt = shutil.which('msgfmt')
if xgettext is None or msgfmt is None:
    print('xgettext or msgfmt missing: translation completeness not checked')
    sys.exit(1 if failed else 77)


def read_po(path):
    """msgid → (msgstr, fuzzy) for every message but the header."""
    entries = {}
    with open(path, encoding='utf-8') as f:
        text = f.read()
    for block in text.split('\n\n'):
        lines = [l for l in block.strip().splitlines() if not l.startswith('#~')]
        fuzzy = any(l.startswith('#,') and 'fuzzy' in l for l in lines)
        fields = {}
        current = None
        for line in lines:
            m = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$', line)
            if m:
                current = m.group(1)
                fields[current] = m.group(2)
            elif line.startswith('"') and current is not None:
                fields[current] += line[1:-1]
        if 'msgid' in fields and fields['msgid'] != '':
            key = (fields.get('msgctxt'), fields['msgid'])
            msgstr = fields.get('msgstr', fields.get('msgstr[0]', ''))
            entries[key] = (msgstr, fuzzy)
    return entries


with tempfile.TemporaryDirectory() as tmp:
    pot = os.path.join(tmp, 'kymo.pot')
    subprocess.run([xgettext, '-f', os.path.join(root, 'po', 'POTFILES.in'), '-D', root,
                    '-o', pot, '--from-code=UTF-8', '--package-name=kymo',
                    '--keyword=_', '--keyword=N_', '--keyword=C_:1c,2', '--keyword=NC_:1c,2',
                    '--keyword=g_dcgettext:2', '--keyword=g_dngettext:2,3',
                    '--keyword=g_dpgettext2:2c,3'], check=True)
    wanted = read_po(pot)

for lang in ('de',):
    po = os.path.join(root, 'po', lang + '.po')
    subprocess.run([msgfmt, '--check', '-o', os.devnull, po], check=True)
    have = read_po(po)
    for key in wanted:
        msgstr, fuzzy = have.get(key, ('', False))
        if msgstr == '':
            fail(f'po/{lang}.po does not translate {key[1]!r}')
        elif fuzzy:
            fail(f'po/{lang}.po has a fuzzy translation of {key[1]!r}')
    print(f'po/{lang}.po: {len(wanted)} messages checked')

sys.exit(1 if failed else 0)
