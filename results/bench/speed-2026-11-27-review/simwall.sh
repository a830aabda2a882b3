#!/bin/bash
# simwall.sh SCENARIO N BIN_A BIN_B: N pairs of `sharesim run`, A then B in each; the medians of timing.json's wall_s
# (the simulation alone) and of the whole process's wall seconds, and in how many pairs B was faster.
sc=$1; n=$2; a=$3; b=$4
for ((i=0;i<n;i++)); do
  line=""
  for x in $a $b; do rm -rf ${TMPDIR:-/tmp}/sw-out; /usr/bin/time -f "%e" -o ${TMPDIR:-/tmp}/sw-t $x run -q -o ${TMPDIR:-/tmp}/sw-out $sc >/dev/null 2>&1
    line="$line $(grep -o '"wall_s": [0-9.]*' ${TMPDIR:-/tmp}/sw-out/timing.json | cut -d' ' -f2) $(cat ${TMPDIR:-/tmp}/sw-t)"; done
  echo $line
done | awk '{sa[NR]=$1; wa[NR]=$2; sb[NR]=$3; wb[NR]=$4; if ($3<$1) fs++; if ($4<$2) fw++}
function med(v,n,  i,j,t,s){for(i=1;i<=n;i++)s[i]=v[i]; for(i=1;i<=n;i++)for(j=i+1;j<=n;j++)if(s[j]<s[i]){t=s[i];s[i]=s[j];s[j]=t}; return n%2?s[(n+1)/2]:(s[n/2]+s[n/2+1])/2}
END {printf "A sim %.3f whole %.3f | B sim %.3f whole %.3f | B faster sim in %d/%d, whole in %d/%d\n", med(sa,NR), med(wa,NR), med(sb,NR), med(wb,NR), fs, NR, fw, NR}'
