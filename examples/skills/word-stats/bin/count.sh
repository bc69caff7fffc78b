#!/bin/sh
# Counts lines, words and characters. The skill folder is the working folder, so paths are taken
# relative to GEEKAGENT_PROJECT when it is set, else as given.
if [ "$#" -eq 0 ]; then
  echo "usage: count.sh <file>..." >&2
  exit 2
fi
for file in "$@"; do
  case "$file" in
    /*) path="$file" ;;
    *) path="${GEEKAGENT_PROJECT:-.}/$file" ;;
  esac
  set -- $(wc -l -w -c < "$path")
  echo "$file: $1 lines, $2 words, $3 chars"
done
