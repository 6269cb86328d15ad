#!/bin/sh
# Installs Kymo's MIME types into a scratch XDG data dir and checks that
# every sample trace with a magic number is recognised by its content alone
# (each sample is seen through a symlink whose name matches no glob).
set -eu

mime_xml=$1
samples=${KYMO_SAMPLES_DIR:-}

if ! command -v update-mime-database >/dev/null || ! command -v gio >/dev/null; then
  echo "update-mime-database or gio missing"; exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/data/mime/packages" "$tmp/home" "$tmp/links"
cp "$mime_xml" "$tmp/data/mime/packages/io.github.kymo.Kymo.xml"
export XDG_DATA_DIRS="$tmp/data"
export XDG_DATA_HOME="$tmp/home"
update-mime-database "$tmp/data/mime"

check() {
  expected=$1 file=$2 name=$3
  ln -s "$file" "$tmp/links/$name"
  got=$(gio info -a standard::content-type "$tmp/links/$name" | sed -n 's/^ *standard::content-type: //p')
  if [ "$got" != "$expected" ]; then
    echo "FAIL: $file: $got, expected $expected"; failed=1
  else
    echo "ok: $file: $got"
  fi
}

# Names decide when content cannot (gzip-wrapped dial9, Tonbandgerät).
failed=0
mkdir "$tmp/names"
for pair in x.wtf-trace:application/x-wtf-trace x.rtc:application/x-ruler-trace \
            x.atf:application/x-atf-trace trace.3.bin:application/x-dial9-trace \
            x.bin.gz:application/x-dial9-trace x.tband:application/x-tonbandgeraet-trace; do
  name=${pair%%:*} type=${pair#*:}
  printf '\001\002\003\004' > "$tmp/names/$name"
  got=$(gio info -a standard::content-type "$tmp/names/$name" | sed -n 's/^ *standard::content-type: //p')
  if [ "$got" != "$type" ]; then
    echo "FAIL: by name $name: $got, expected $type"; failed=1
  else
    echo "ok: by name $name: $got"
  fi
done

if [ -z "$samples" ] || [ ! -d "$samples" ]; then
  echo "samples not found (KYMO_SAMPLES_DIR): content checks skipped"
  [ $failed -eq 0 ] || exit 1
  exit 77
fi

n=0
for f in $(find "$samples" -type f | sort); do
  n=$((n + 1))
  magic=$(od -An -tx1 -N8 "$f" | tr -d ' \n')
  case $magic in
    54524300*|544f4b494f545243) check application/x-dial9-trace "$f" "sample-$n" ;;
    04b9b9b9b9b9b9b9) check application/x-ruler-trace "$f" "sample-$n" ;;
    41544932*|41544432*) check application/x-atf-trace "$f" "sample-$n" ;;
    deadbeef*|efbeadde*) check application/x-wtf-trace "$f" "sample-$n" ;;
    *) echo "no magic to check: $f" ;;
  esac
done
exit $failed
