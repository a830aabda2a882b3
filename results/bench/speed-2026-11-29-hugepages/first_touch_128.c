#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <string.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int c,char**v){size_t mb=atoi(v[1]);int huge=atoi(v[2]);size_t n=mb<<20;
char*p=mmap(0,n,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
if(huge)madvise(p,n,MADV_HUGEPAGE);
double t=now();for(size_t i=0;i<n;i+=4096)p[i]=1;double t2=now();
printf("%zu MB huge=%d first touch %.3f s (%.2f ms/MB)\n",mb,huge,t2-t,(t2-t)*1e3/mb);
t=now();memset(p,2,n);t2=now();printf("memset again %.3f s\n",t2-t);}
