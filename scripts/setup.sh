#!/usr/bin/env bash
# Prepares a fresh Debian/Ubuntu machine for the companion: system libraries, a virtual
# environment in .venv, and the project installed into it. Safe to run again: it only does
# what is missing. Usage: scripts/setup.sh [--test]   (--test also installs the test tools
# and Debian's Chromium for the browser tests)
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[ "${1:-}" = "--test" ] && want_test=1

say() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }

need_pkgs=()
if ! ldconfig -p 2>/dev/null | grep 'libzbar\.so' >/dev/null; then  # no -q: an early exit would SIGPIPE ldconfig under pipefail
  need_pkgs+=(libzbar0)
fi
if [ "$want_test" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  need_pkgs+=(chromium)
fi
# (tests print indices in these typefaces: a German deck's "D" in Liberation; decks set in
# Lato, Open Sans and Caladea, which the glyph model was not built from)
if [ "$want_test" = 1 ]; then
  [ -f /usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf ] || need_pkgs+=(fonts-liberation)
  [ -f /usr/share/fonts/truetype/lato/Lato-Bold.ttf ] || need_pkgs+=(fonts-lato)
  [ -f /usr/share/fonts/truetype/open-sans/OpenSans-Bold.ttf ] || need_pkgs+=(fonts-open-sans)
  [ -f /usr/share/fonts/truetype/crosextra/Caladea-Bold.ttf ] || need_pkgs+=(fonts-crosextra-caladea)
fi
# (the tests run the compiled card reader: scripts/build_native.py needs a C compiler and
# Python's headers)
if [ "$want_test" = 1 ]; then
  command -v gcc >/dev/null || need_pkgs+=(gcc)
  "${PYTHON:-python3}" -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
    2>/dev/null || need_pkgs+=(python3-dev)
fi
if [ "${#need_pkgs[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing Debian packages: ${need_pkgs[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq "${need_pkgs[@]}" >/dev/null
  else
    say "missing Debian packages: ${need_pkgs[*]}"
    say "install them with:  sudo apt-get install -y ${need_pkgs[*]}"
    say "(QR codes need libzbar0; the browser tests need chromium; tests, the fonts, and"
    say "a C compiler and Python's headers to compile the card reader)"
    exit 1
  fi
fi

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  say "Python 3.11 or newer is needed (found: $("$PYTHON" --version 2>&1 || echo none))."
  say "On Debian/Ubuntu: sudo apt-get install -y python3 python3-venv"
  exit 1
fi

if [ ! -x .venv/bin/python ]; then
  say "creating the virtual environment in .venv"
  "$PYTHON" -m venv .venv
fi

stamp=".venv/.installed"
[ "$want_test" = 1 ] && stamp=".venv/.installed-test"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ constraints.txt -nt "$stamp" ]; then
  say "installing the companion and its libraries (first time only)"
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
  target=".[native]"
  [ "$want_test" = 1 ] && target=".[native,test]"
  if ! .venv/bin/python -m pip install -q -c constraints.txt -e "$target" \
      > .venv/install.log 2>&1; then
    say "installing failed; pip said:"
    grep -v '^WARNING: Location' .venv/install.log >&2 || true
    exit 1
  fi
  .venv/bin/python -c 'import companion, cv2, flask, numpy, pyzbar.pyzbar' \
    || { say "the install did not complete; see .venv/install.log"; exit 1; }
  touch "$stamp"
fi

# the card reader compiled (vision/native.py), once per change of its sources, a minute or
# two. The tests wait for it (they run it); the companion does not: it starts on the sources,
# which read the same, slower, while the compiling goes on in the background for its next
# start (where it cannot be compiled, the sources go on running)
if [ "$want_test" = 1 ]; then
  if ! .venv/bin/python scripts/build_native.py; then
    say "the tests need the compiled card reader: install a C compiler and Python's headers"
    say "(Debian: sudo apt-get install -y gcc python3-dev), then run this again"
    exit 1
  fi
elif ! .venv/bin/python scripts/build_native.py --check; then
  mkdir -p build
  say "compiling the card reader in the background for the next start (build/native.log)"
  setsid nohup .venv/bin/python scripts/build_native.py > build/native.log 2>&1 < /dev/null &
fi
