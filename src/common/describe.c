/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Printing policies and their provenance for people. */
#include "describe.h"

#include <stdbool.h>

#include <string.h>

void print_origin(FILE *f, const struct fbac_origin *o)
{
	if (!o)
		return;
	fprintf(f, "%s (%s:%u:%u)", o->chain, o->mark.file ? o->mark.file : "?",
		o->mark.line, o->mark.col);
}

void print_layer_role(FILE *f, const struct fbac_stack_entry *e)
{
	if (e->kind == FBAC_LAYER_ADMIN)
		fprintf(f, " (the administrator's ceiling: applies whatever the other layers grant)");
	else if (e->replaces)
		fprintf(f, " (the user's own policy: replaces the %s's)",
			e->replaces);
}

void print_ops(FILE *f, uint32_t ops)
{
	bool first = true;

	for (unsigned i = 0; i < FBAC_OP_COUNT; i++)
		if (ops & FBAC_OP_BIT(i)) {
			fprintf(f, "%s%s", first ? "" : ",",
				fbac_op_info((enum fbac_op)i)->name);
			first = false;
		}
}

static void print_ll_access(FILE *f, uint64_t acc)
{
	static const char *const names[] = {
		"execute",   "write_file", "read_file", "read_dir",
		"remove_dir", "remove_file", "make_char", "make_dir",
		"make_reg",  "make_sock",  "make_fifo", "make_block",
		"make_sym",  "refer",	   "truncate",	"ioctl_dev",
	};
	bool first = true;

	for (unsigned i = 0; i < ARRAY_SIZE(names); i++)
		if (acc & (1ULL << i)) {
			fprintf(f, "%s%s", first ? "" : ",", names[i]);
			first = false;
		}
}

static void print_ports(FILE *f, const uint16_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		if (j > i)
			fprintf(f, "%s%u-%u", i ? "," : "", v[i], v[j]);
		else
			fprintf(f, "%s%u", i ? "," : "", v[i]);
		i = j;
	}
}

static void print_net_rule(FILE *f, const struct fbac_rule *r)
{
	fprintf(f, "  %-5s ", r->deny ? "deny" : "allow");
	print_ops(f, r->ops);
	fprintf(f, " %s ports ", r->proto == FBAC_PROTO_TCP ? "tcp" : "udp");
	for (size_t i = 0; i < r->n_ports; i++) {
		if (r->ports[i].lo == r->ports[i].hi)
			fprintf(f, "%s%u", i ? "," : "", r->ports[i].lo);
		else
			fprintf(f, "%s%u-%u", i ? "," : "", r->ports[i].lo,
				r->ports[i].hi);
	}
	fprintf(f, " hosts ");
	if (!r->hosts)
		fprintf(f, "any");
	for (size_t i = 0; r->hosts && i < r->n_hosts; i++)
		fprintf(f, "%s%s", i ? "," : "", r->hosts[i]);
	fprintf(f, "\n        from ");
	print_origin(f, r->origin);
	fputc('\n', f);
}

void print_kernel_ports(FILE *f, const struct fbac_policy *p)
{
	fprintf(f, "  tcp connect: ");
	if (!p->ll.handle_connect_tcp)
		fprintf(f, "not restricted by the kernel");
	else if (!p->ll.n_connect_ports)
		fprintf(f, "none");
	print_ports(f, p->ll.connect_ports, p->ll.n_connect_ports);
	fprintf(f, "\n  tcp bind: ");
	if (!p->ll.handle_bind_tcp)
		fprintf(f, "not restricted by the kernel");
	else if (!p->ll.n_bind_ports)
		fprintf(f, "none");
	print_ports(f, p->ll.bind_ports, p->ll.n_bind_ports);
	fputc('\n', f);
}

void print_metadata_why(FILE *f, const struct fbac_resolved *res)
{
	if (res->metadata == FBAC_META_UNSET || !res->metadata_why) {
		fprintf(f, "the default: nothing says visible");
		return;
	}
	fprintf(f, "%s", res->metadata_why);
	if (res->metadata_mark.file && res->metadata_mark.line)
		fprintf(f, " (%s:%u:%u)", res->metadata_mark.file,
			res->metadata_mark.line, res->metadata_mark.col);
}

void print_policy_metadata(FILE *f, const struct fbac_policy *p)
{
	fprintf(f, "metadata: %s, from ",
		fbac_metadata_name(p->res->metadata));
	print_metadata_why(f, p->res);
	fprintf(f, "\n");
}

void print_policy(FILE *f, const struct fbac_policy *p)
{
	print_policy_metadata(f, p);
	fprintf(f, "privileges:\n");
	for (size_t i = 0; i < p->n_prules; i++) {
		const struct fbac_prule *r = &p->prules[i];

		fprintf(f, "  %-5s ", r->deny ? "deny" : "allow");
		print_ops(f, r->ops);
		fprintf(f, " %s\n        from ", r->pattern);
		print_origin(f, r->origin);
		fputc('\n', f);
	}
	for (size_t i = 0; i < p->n_abstract; i++) {
		const struct fbac_rule *r = p->abstract[i];

		fprintf(f, "  %-5s ", r->deny ? "deny" : "allow");
		print_ops(f, r->ops);
		fprintf(f, " %s\n        from ", r->pattern);
		print_origin(f, r->origin);
		fputc('\n', f);
	}
	for (size_t i = 0; i < p->n_net; i++)
		print_net_rule(f, p->net[i]);
	if (p->signal_origin) {
		fprintf(f, "  allow ipc_signal any\n        from ");
		print_origin(f, p->signal_origin);
		fputc('\n', f);
	}
	if (p->n_protected) {
		fprintf(f, "protected (reached only by rules written at or below them):\n");
		for (size_t i = 0; i < p->n_protected; i++) {
			fprintf(f, "  %s  (%s)", p->protected[i].path,
				p->protected[i].reason);
			if (p->protected[i].allow) {
				fprintf(f, "; broad rules may still grant ");
				print_ops(f, p->protected[i].allow);
			}
			fputc('\n', f);
		}
	}

	fprintf(f, "kernel (Landlock) rules:\n");
	for (size_t i = 0; i < p->ll.n_paths; i++) {
		fprintf(f, "  %s  ", p->ll.paths[i].path);
		print_ll_access(f, p->ll.paths[i].access);
		fputc('\n', f);
	}
	print_kernel_ports(f, p);
	fprintf(f, "  scoped: %s%s\n",
		(p->ll.scope & FBAC_LL_SCOPE_SIGNAL) ? "signals " : "",
		(p->ll.scope & FBAC_LL_SCOPE_ABSTRACT_UNIX) ?
			"abstract-unix-sockets" :
			"");
	fprintf(f, "decided by the supervisor (the kernel cannot express them):\n");
	for (size_t i = 0; i < p->n_gaps; i++) {
		fprintf(f, "  ");
		print_ops(f, p->gaps[i].ops);
		fprintf(f, ": %s", p->gaps[i].why);
		if (p->gaps[i].origin) {
			fprintf(f, "\n        from ");
			print_origin(f, p->gaps[i].origin);
		}
		fputc('\n', f);
	}
}
