# Sourced by the command-line test scripts (sweep_test.sh, architect_test.sh) after they set $tmp:
# check() runs one command as a test case and counts it in $passed or $failed.
passed=0
failed=0
check() {  # DESCRIPTION COMMAND...; the command's stdout is kept in $tmp/out until the next check
  local what=$1
  shift
  if "$@" >"$tmp/out.new" 2>"$tmp/err"; then
    mv "$tmp/out.new" "$tmp/out"
    passed=$((passed + 1))
    echo "ok - $what"
  else
    mv "$tmp/out.new" "$tmp/out"
    failed=$((failed + 1))
    echo "FAIL - $what: $(head -c 400 "$tmp/err" | tr '\n' ' ')"
  fi
}
