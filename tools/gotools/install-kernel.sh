#!/bin/sh
# Installs the "gexph" Jupyter kernel: GoNB with the gexph module in its go.work, the
# pinned toolchain, the SIMD build of the pure-Go GoMLX backend and no module proxy, so
# that notebooks run offline from the module cache. Errors are plain text (--raw_error),
# readable in executed notebooks and logs as well as in Jupyter.
#
# Usage: install-kernel.sh MODULE_DIR GOBIN_DIR
#   MODULE_DIR  the gexph module root (the directory holding its go.mod)
#   GOBIN_DIR   where gonb and goimports are installed (`go install tool` in tools/gotools)
# The kernel goes to $JUPYTER_DATA_DIR/kernels/gexph (default ~/.local/share/jupyter).
# GOMLX_BACKEND, when set, replaces the default backend "go".
set -eu

if [ $# -ne 2 ]; then
	echo "usage: $0 MODULE_DIR GOBIN_DIR" >&2
	exit 2
fi
module_dir=$(cd "$1" && pwd)
gobin_dir=$2
gonb="$gobin_dir/gonb"

if [ ! -f "$module_dir/go.mod" ]; then
	echo "install-kernel: $module_dir/go.mod not found: MODULE_DIR must be the module root" >&2
	exit 1
fi
for tool in gonb goimports; do
	if [ ! -x "$gobin_dir/$tool" ]; then
		echo "install-kernel: $gobin_dir/$tool not found: run 'make notebook-kernel'" >&2
		exit 1
	fi
done
go_cmd=$(command -v go) || { echo "install-kernel: no go command on PATH" >&2; exit 1; }
go_dir=$(dirname "$go_cmd")

# The kernel.json is written with plain string substitution: refuse characters that
# would need JSON escaping.
for value in "$module_dir" "$gobin_dir" "$go_dir" "${JUPYTER_DATA_DIR:-}" "${GOMLX_BACKEND:-go}"; do
	case $value in
	*\"* | *\\*)
		echo "install-kernel: unsupported character in \"$value\"" >&2
		exit 1
		;;
	esac
done

kernel_dir="${JUPYTER_DATA_DIR:-$HOME/.local/share/jupyter}/kernels/gexph"
mkdir -p "$kernel_dir"
tmp=$(mktemp "$kernel_dir/kernel.json.XXXXXX")
trap 'rm -f "$tmp"' EXIT
cat >"$tmp" <<EOF
{
  "argv": ["$gonb", "--kernel", "{connection_file}", "--go_work=$module_dir", "--raw_error"],
  "display_name": "Go (gexph)",
  "language": "go",
  "interrupt_mode": "message",
  "env": {
    "GOTOOLCHAIN": "go1.27.0",
    "GOEXPERIMENT": "simd",
    "GOMLX_BACKEND": "${GOMLX_BACKEND:-go}",
    "GOPROXY": "off",
    "PATH": "$gobin_dir:$go_dir:\${PATH}"
  }
}
EOF
chmod 0644 "$tmp"
mv "$tmp" "$kernel_dir/kernel.json"
trap - EXIT
echo "installed Jupyter kernel gexph: $kernel_dir/kernel.json"
