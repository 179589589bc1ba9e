#!/bin/bash
set -e

# Say hello.
greet() {
  echo "hello $1"
}

if [ -n "$1" ]; then
  greet "$1"
fi

for i in 1 2; do
  echo "$i"
done
