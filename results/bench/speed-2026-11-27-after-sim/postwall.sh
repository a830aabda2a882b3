#!/bin/bash
# postwall.sh SCEN N BIN_A BIN_B: alternating runs; per run: sim wall (timing.json wall_s), whole-process wall, and
# whole - sim (set-up + metrics + output files). Medians, and in how many pairs B was faster.
sc=$1; n=$2; a=$3; b=$4
for ((i=0;i<n;i++)); do
  line=""
  for x in $a $b; do rm -rf /tmp/sp/pw-out; /usr/bin/time -f "%e" -o /tmp/sp/pw-t $x run -q -o /tmp/sp/pw-out $sc >/dev/null 2>&1
    line="$line $(grep -o '"wall_s": [0-9.]*' /tmp/sp/pw-out/timing.json | cut -d' ' -f2) $(cat /tmp/sp/pw-t)"; done
  echo $line
done | python3 -c "
import sys,statistics as st
r=[list(map(float,l.split())) for l in sys.stdin]
m=lambda v: st.median(v)
sa=[x[0] for x in r]; wa=[x[1] for x in r]; sb=[x[2] for x in r]; wb=[x[3] for x in r]
pa=[w-s for s,w in zip(sa,wa)]; pb=[w-s for s,w in zip(sb,wb)]
print('A sim %.3f whole %.3f after-sim %.3f | B sim %.3f whole %.3f after-sim %.3f | B faster: whole %d/%d, after-sim %d/%d' % (m(sa),m(wa),m(pa),m(sb),m(wb),m(pb), sum(b<a for a,b in zip(wa,wb)), len(r), sum(b<a for a,b in zip(pa,pb)), len(r)))
print('  sim pairs:', ' '.join('%.2f/%.2f'%(a,b) for a,b in zip(sa,sb)), ' B faster sim %d/%d'%(sum(b<a for a,b in zip(sa,sb)),len(r))); print('  A after-sim:', ' '.join('%.3f'%x for x in pa)); print('  B after-sim:', ' '.join('%.3f'%x for x in pb))
"
