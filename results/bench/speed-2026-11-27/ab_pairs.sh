#!/bin/bash
# ab_pairs.sh SCENARIO N BIN_A BIN_B: N pairs of whole `sharesim run` processes, A then B in each;
# prints the medians of wall and CPU (user + system) seconds, peak RSS, and in how many pairs B was faster.
sc=$1; n=$2; a=$3; b=$4
for ((i=0;i<n;i++)); do
  for x in $a $b; do rm -rf ${TMPDIR:-/tmp}/ab-out; /usr/bin/time -f "%e %U %S %M" -o ${TMPDIR:-/tmp}/ab-t-$(basename $x) $x run -q -o ${TMPDIR:-/tmp}/ab-out $sc >/dev/null 2>&1; done
  echo "$(cat ${TMPDIR:-/tmp}/ab-t-$(basename $a)) $(cat ${TMPDIR:-/tmp}/ab-t-$(basename $b))"
done | awk '{wa[NR]=$1; ca[NR]=$2+$3; wb[NR]=$5; cb[NR]=$6+$7; ra=$4; rb=$8; if ($5<$1) fw++; if ($6+$7<$2+$3) fc++}
function med(v,n,  i,j,t,s){for(i=1;i<=n;i++)s[i]=v[i]; for(i=1;i<=n;i++)for(j=i+1;j<=n;j++)if(s[j]<s[i]){t=s[i];s[i]=s[j];s[j]=t}; return n%2?s[(n+1)/2]:(s[n/2]+s[n/2+1])/2}
END {printf "A wall med %.3f cpu med %.3f rss %d KiB | B wall med %.3f cpu med %.3f rss %d KiB | B faster wall in %d/%d, less cpu in %d/%d\n", med(wa,NR), med(ca,NR), ra, med(wb,NR), med(cb,NR), rb, fw, NR, fc, NR}'
