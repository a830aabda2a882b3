# Sourced by prefetch_codegen_test.sh and prefetch_in_binary_test.sh: sets $prefetch to this
# machine's prefetch instruction mnemonic as objdump and the compiler's assembly print it, or
# skips the test (exit 77) on an architecture whose mnemonic it does not know.
case "$(uname -m)" in
  x86_64) prefetch='prefetch' ;;
  aarch64) prefetch='prfm' ;;
  *) echo "SKIP: no prefetch mnemonic known for $(uname -m)"; exit 77 ;;
esac
