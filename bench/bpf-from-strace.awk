# SPDX-License-Identifier: GPL-2.0-or-later
# bench/bpf-from-strace.awk: the program of the first
# seccomp(SECCOMP_SET_MODE_FILTER, ...) line that `strace -v` printed, as
# lines "CODE JT JF K" (decimal), which bench-startup-floor loads. Exit 1
# if a symbol is not known (the program would be wrong). Used by
# bench/bench-run.sh.
function hex(s,   i, c, v) {
	v = 0
	s = tolower(s)
	if (s !~ /^0x/) return s + 0
	for (i = 3; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1)) - 1
		if (c < 0) break
		v = v * 16 + c
	}
	return v
}
function val(e,   n, p, i, v) {
	n = split(e, p, "|")
	v = 0
	for (i = 1; i <= n; i++) {
		gsub(/^ +| +$/, "", p[i])
		if (p[i] in S) v += S[p[i]]
		else if (p[i] ~ /^(0x)?[0-9a-fA-F]+$/) v += hex(p[i])
		else { bad = 1 }
	}
	return v
}
BEGIN {
	split("BPF_LD 0 BPF_LDX 1 BPF_ST 2 BPF_STX 3 BPF_ALU 4 BPF_JMP 5 BPF_RET 6 BPF_MISC 7 " \
	      "BPF_W 0 BPF_H 8 BPF_B 16 BPF_IMM 0 BPF_ABS 32 BPF_IND 64 BPF_MEM 96 BPF_LEN 128 BPF_MSH 160 " \
	      "BPF_K 0 BPF_X 8 BPF_A 16 BPF_ADD 0 BPF_SUB 16 BPF_MUL 32 BPF_DIV 48 BPF_OR 64 BPF_AND 80 " \
	      "BPF_LSH 96 BPF_RSH 112 BPF_NEG 128 BPF_MOD 144 BPF_XOR 160 BPF_JA 0 BPF_JEQ 16 BPF_JGT 32 " \
	      "BPF_JGE 48 BPF_JSET 64 BPF_TAX 0 BPF_TXA 128 " \
	      "SECCOMP_RET_KILL_PROCESS 2147483648 SECCOMP_RET_KILL_THREAD 0 SECCOMP_RET_KILL 0 " \
	      "SECCOMP_RET_TRAP 196608 SECCOMP_RET_ERRNO 327680 SECCOMP_RET_USER_NOTIF 2143289344 " \
	      "SECCOMP_RET_TRACE 2146435072 SECCOMP_RET_LOG 2147221504 SECCOMP_RET_ALLOW 2147418112", t, " ")
	for (i = 1; i in t; i += 2) S[t[i]] = t[i + 1]
}
/SECCOMP_SET_MODE_FILTER/ && /filter=\[/ {
	s = $0
	sub(/.*filter=\[/, "", s)
	sub(/\]\}.*/, "", s)
	n = split(s, ins, /\), BPF_/)
	for (j = 1; j <= n; j++) {
		x = ins[j]
		sub(/^BPF_/, "", x); sub(/\)$/, "", x)
		jump = (x ~ /^JUMP\(/)
		sub(/^(STMT|JUMP)\(/, "", x)
		m = split(x, f, ", ")
		if (jump) printf "%.0f %.0f %.0f %.0f\n", val(f[1]), val(f[3]), val(f[4]), val(f[2])
		else printf "%.0f 0 0 %.0f\n", val(f[1]), val(f[2])
	}
	exit
}
END { exit bad }
