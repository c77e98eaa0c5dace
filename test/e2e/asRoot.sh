# Sourced by the scripts that install Debian's packages for the suites (queue/install-services.sh,
# install-chromium.sh): sets `as_root` to run a command as root (directly, or by passwordless sudo), or stops
# with what to do. $1 names the calling script, $2 what is missing, $3 the install command to give the user.
as_root_or_stop() {
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
  else
    echo "$1: $2, and installing it needs root." >&2
    echo "  Run as root, give this user passwordless sudo, or install it yourself: $3" >&2
    exit 1
  fi
}
