#!/bin/bash
# phases.sh BIN SCEN N: phase durations (s) from SHARESIM_PHASES stderr lines
b=$1; s=$2; n=$3
for ((i=0;i<n;i++)); do rm -rf /tmp/sp/ph-out; st=$(date +%s.%N); SHARESIM_PHASES=1 $b run -q -o /tmp/sp/ph-out $s 2>/tmp/sp/ph.err >/dev/null; en=$(date +%s.%N)
python3 - "$st" "$en" <<'P'
import sys
st,en=float(sys.argv[1]),float(sys.argv[2])
d={}
for l in open('/tmp/sp/ph.err'):
  p=l.split()
  if p and p[0]=='phase': d[p[1]]=float(p[2])
print("setup %.3f sim %.3f metrics %.3f outputs %.3f exit %.3f | whole %.3f" % (d['run_begin']-d['main_begin'], d['sim_end']-d['run_begin'], d['metrics_end']-d['sim_end'], d['outputs_end']-d['metrics_end'], 0, en-st))
P
done
