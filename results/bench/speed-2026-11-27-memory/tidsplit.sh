#!/bin/bash
# tidsplit.sh PERF: samples per thread, and each thread's top leaf symbols
perf script -i $1 -F tid,ip,sym 2>/dev/null | awk '/^[0-9]+ *$/ {tid=$1; getline; sym=$2; c[tid]++; t[tid" "sym]++} END{for(k in c) print c[k], "TOTAL", k; for(k in t) if (t[k]>50) print t[k],k}' | sort -rn | head -${2:-30}
