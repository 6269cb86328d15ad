#!/usr/bin/env python3
"""The flatpak manifest parses, names our app id and command, builds this
source folder with meson, and asks for no filesystem access (the file
chooser and drops go through portals)."""
import json
import os
import re
import sys

path = sys.argv[1]
root = os.path.dirname(os.path.dirname(os.path.abspath(path)))

with open(path, encoding='utf-8') as f:
    manifest = json.load(f)

with open(os.path.join(root, 'meson.build'), encoding='utf-8') as f:
    app_id = re.search(r"app_id\s*=\s*'([^']+)'", f.read()).group(1)
with open(os.path.join(root, 'src', 'app', 'meson.build'), encoding='utf-8') as f:
    commands = re.findall(r"executable\('([^']+)'", f.read())

errors = []
if manifest.get('app-id') != app_id:
    errors.append(f"app-id is {manifest.get('app-id')!r}, meson.build says {app_id!r}")
if os.path.basename(path) != app_id + '.json':
    errors.append(f'the manifest file should be named {app_id}.json')
if manifest.get('command') not in commands:
    errors.append(f"command {manifest.get('command')!r} is not an executable of src/app ({commands})")
if manifest.get('runtime') != 'org.gnome.Platform' or manifest.get('sdk') != 'org.gnome.Sdk':
    errors.append('runtime and sdk must be the GNOME ones')

finish_args = manifest.get('finish-args', [])
for wanted in ('--socket=wayland', '--socket=fallback-x11', '--share=ipc', '--device=dri'):
    if wanted not in finish_args:
        errors.append(f'finish-args lacks {wanted}')
for arg in finish_args:
    if arg.startswith(('--filesystem', '--persist', '--socket=x11', '--device=all', '--share=network')):
        errors.append(f'finish-args must not ask for {arg}')

module = manifest['modules'][-1]
if module.get('buildsystem') != 'meson':
    errors.append('the last module must build with meson')
dirs = [s for s in module.get('sources', []) if s.get('type') == 'dir']
if not dirs or os.path.realpath(os.path.join(os.path.dirname(path), dirs[0]['path'])) != os.path.realpath(root):
    errors.append('the last module must build this source folder')

for e in errors:
    print('FAIL:', e)
print(f"{path}: app-id {manifest.get('app-id')}, command {manifest.get('command')}")
sys.exit(1 if errors else 0)
