#!/usr/bin/env bash
# System packages the tests need that pip cannot give, apt-installed when missing:
#   chromium    Debian's chromium for the web pages' browser tests (tests/web/test_browser_*.py
#               drive it with Playwright; no browser is downloaded)
#   postgresql  Debian's PostgreSQL server binaries for the PostgreSQL store's tests
#               (tests/store/pgserver.py starts a throwaway server of its own with them)
#   dovecot-imapd  Debian's IMAP server for the game master's mailbox tests
#               (tests/gm/imapserver.py starts a throwaway server of its own)
# Idempotent: installs only what is missing.  CI runs it as root on a clean Debian machine
# before the tests (.ci/run); elsewhere, without root, it only says what is missing.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
[ -x /usr/sbin/dovecot ] || missing+=(dovecot-imapd)
if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "ci_packages.sh: missing ${missing[*]}; install as root: apt-get install -y ${missing[*]}" >&2
    exit 0
fi
echo "== apt-get install ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q "${missing[@]}"
