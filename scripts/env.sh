# Source this file (`. scripts/env.sh`) to get Ubik's tools on PATH in a shell:
# cargo from ~/.cargo/bin when it is not on PATH, and the repository root (./ubik).
_ubik_root=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)
if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
    PATH="$HOME/.cargo/bin:$PATH"
fi
case ":$PATH:" in
    *":$_ubik_root:"*) ;;
    *) PATH="$_ubik_root:$PATH" ;;
esac
export PATH
unset _ubik_root
