#!/bin/bash
# faultsrc.sh PERF TID: for samples of TID in clear_page_erms, the first two user frames
perf script -i $1 -F tid,ip,sym 2>/dev/null | awk -v T=$2 '
/^[0-9]+ *$/ {if (inrec && cp) c[key]++; inrec=($1==T); cp=0; key=""; n=0; first=1; next}
inrec { if (first) {cp=($2=="clear_page_erms"); first=0} ; if ($1 !~ /^ffffffff/ && n<3) {key=key" <- "$2; n++} }
END{ if (inrec && cp) c[key]++; for(k in c) print c[k], k}' | sort -rn | head -${3:-15}
