# SPDX-License-Identifier: MIT
# Sourced by scripts/board-run.sh, scripts/board-load.sh and board/galcore/run-graph-probe.sh.
# A copy of an rknpu driver folder made without symbolic links (git's core.symlinks=false, a flattened
# snapshot such as CI's read-only shared copy) holds each link as a small file naming its target
# (libOpenVX.so.1 holds "libOpenVX.so.1.2"); the linker and the loader would read those files.
#   board_driver_libdir LIBDIR WORK   prints LIBDIR, or WORK/libdir: LIBDIR seen through real links
board_link_target() {  # FILE: its target's name when FILE is such a stand-in for a link
  local file=$1 target
  [[ -f $file && ! -L $file && $(stat -c %s "$file") -lt 256 ]] || return 1
  target=$(head -c 255 "$file")
  [[ $target != */* && $target != "$(basename "$file")" && -e $(dirname "$file")/$target ]] || return 1
  printf '%s' "$target"
}
board_driver_libdir() {
  local libdir=$1 work=$2 entry target found=0
  for entry in "$libdir"/*; do
    board_link_target "$entry" >/dev/null && { found=1; break; }
  done
  if [[ $found == 0 ]]; then
    printf '%s' "$libdir"
    return
  fi
  mkdir -p "$work/libdir"
  for entry in "$libdir"/*; do
    if target=$(board_link_target "$entry"); then
      ln -sfn "$libdir/$target" "$work/libdir/$(basename "$entry")"
    else
      ln -sfn "$entry" "$work/libdir/$(basename "$entry")"
    fi
  done
  printf '%s' "$work/libdir"
}
