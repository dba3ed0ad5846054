/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "flamegraph.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- folding ---- */

struct strvec {
	char **v;
	size_t n, cap;
};

static int strvec_push(struct strvec *s, char *str)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		char **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = str;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The function of a frame line "\t ADDR SYM+0xOFF (DSO)": SYM, or [DSO] when unknown. */
static void frame_name(const char *line, char *out, size_t len)
{
	const char *p = line, *sym, *end, *dso;

	while (*p && isspace((unsigned char)*p))
		p++;
	while (*p && !isspace((unsigned char)*p)) /* the address */
		p++;
	while (*p && isspace((unsigned char)*p))
		p++;
	sym = p;
	dso = strrchr(p, '(');
	end = dso ? dso : p + strlen(p);
	while (end > sym && isspace((unsigned char)end[-1]))
		end--;
	if (end - sym >= 9 && !strncmp(sym, "[unknown]", 9) && dso) {
		const char *slash = strrchr(dso, '/'), *close = strrchr(dso, ')');
		const char *base = slash ? slash + 1 : dso + 1;

		if (*base == '[') /* "([unknown])", "([kernel.kallsyms])" */
			base++;
		if (close && close > base && close[-1] == ']')
			close--;

		snprintf(out, len, "[%.*s]", close && close > base ? (int)(close - base) : 0, base);
		return;
	}
	for (const char *q = sym; q < end; q++)
		if (*q == '+' && q[1] == '0' && q[2] == 'x') { /* drop +0xOFF */
			end = q;
			break;
		}
	snprintf(out, len, "%.*s", (int)(end - sym), sym);
	for (char *c = out; *c; c++) /* ';' separates frames, ' ' the count */
		if (*c == ';' || *c == ' ')
			*c = '_';
}

/* Append the collected frames (innermost first) as one folded stack. */
static int emit_stack(struct strvec *stacks, const char *comm, char frames[][128], int nf)
{
	size_t len = strlen(comm) + 1;
	char *s;

	for (int i = 0; i < nf; i++)
		len += strlen(frames[i]) + 1;
	s = malloc(len + 1);
	if (!s)
		return -ENOMEM;
	strcpy(s, comm);
	for (int i = nf - 1; i >= 0; i--) {
		strcat(s, ";");
		strcat(s, frames[i]);
	}
	return strvec_push(stacks, s);
}

long flame_fold(FILE *in, FILE *out, long *idle)
{
	static char frames[512][128];
	struct strvec stacks = { 0 };
	char line[4096], comm[64] = "";
	int nf = 0, in_sample = 0, e = 0;
	long samples = 0;

	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0]) { /* end of a sample */
			if (in_sample && (e = emit_stack(&stacks, comm, frames, nf)))
				break;
			in_sample = 0;
			nf = 0;
			continue;
		}
		if (!isspace((unsigned char)line[0])) { /* "comm PID [CPU] TIME: PERIOD event:" */
			if (in_sample && (e = emit_stack(&stacks, comm, frames, nf)))
				break;
			/* the comm may hold spaces ("CPU 0/TCG"): it ends before the PID that
			 * precedes " [CPU]" */
			{
				char *br = strstr(line, " [");
				size_t n;

				if (br) {
					*br = '\0';
					br = strrchr(line, ' ');
					n = br ? (size_t)(br - line) : strlen(line);
				} else {
					n = strcspn(line, " ");
				}
				while (n && isspace((unsigned char)line[n - 1]))
					n--;
				snprintf(comm, sizeof(comm), "%.*s", (int)n, line);
				for (char *c = comm; *c; c++)
					if (*c == ';' || *c == ' ')
						*c = '_';
			}
			in_sample = 1;
			nf = 0;
			continue;
		}
		if (in_sample && nf < 512)
			frame_name(line, frames[nf++], sizeof(frames[0]));
	}
	if (!e && in_sample)
		e = emit_stack(&stacks, comm, frames, nf);
	if (idle)
		*idle = 0;
	if (!e) {
		qsort(stacks.v, stacks.n, sizeof(*stacks.v), cmp_str);
		for (size_t i = 0; i < stacks.n;) {
			size_t j = i;

			while (j < stacks.n && !strcmp(stacks.v[j], stacks.v[i]))
				j++;
			if (!strncmp(stacks.v[i], "swapper;", 8)) { /* the idle task */
				if (idle)
					*idle += (long)(j - i);
			} else {
				fprintf(out, "%s %zu\n", stacks.v[i], j - i);
				samples += (long)(j - i);
			}
			i = j;
		}
	}
	for (size_t i = 0; i < stacks.n; i++)
		free(stacks.v[i]);
	free(stacks.v);
	return e ? e : samples;
}

/* ---- drawing ---- */

struct node {
	char *name;
	unsigned long value;
	struct node *child, *next;
};

static struct node *child_of(struct node *n, const char *name, size_t len)
{
	struct node *c;

	for (c = n->child; c; c = c->next)
		if (strlen(c->name) == len && !strncmp(c->name, name, len))
			return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->name = strndup(name, len);
	c->next = n->child;
	n->child = c;
	return c;
}

static void free_tree(struct node *n)
{
	while (n) {
		struct node *next = n->next;

		free_tree(n->child);
		free(n->name);
		free(n);
		n = next;
	}
}

static int depth_of(const struct node *n)
{
	int d = 0;

	for (const struct node *c = n->child; c; c = c->next) {
		int cd = depth_of(c);

		if (cd > d)
			d = cd;
	}
	return d + 1;
}

static void xml_text(FILE *out, const char *s, size_t max)
{
	for (size_t i = 0; s[i] && i < max; i++) {
		switch (s[i]) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(s[i], out);
		}
	}
}

#define FG_WIDTH 1200.0
#define FG_PAD 10.0
#define FG_FRAME 16.0
#define FG_TOP 50.0

static void draw(FILE *out, const struct node *n, double x, int level, int depth,
		 unsigned long total, double height)
{
	double w = (FG_WIDTH - 2 * FG_PAD) * (double)n->value / (double)total;
	double y = height - FG_PAD - FG_FRAME * (level + 1);
	uint32_t h = 2166136261u;
	double cx = x;

	if (w < 0.1)
		return;
	for (const char *c = n->name; *c; c++) /* stable colours: FNV-1a of the name */
		h = (h ^ (uint8_t)*c) * 16777619u;
	fprintf(out, "<g><title>");
	xml_text(out, n->name, 500);
	fprintf(out, " (%lu samples, %.2f%%)</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		     "height=\"%.1f\" fill=\"rgb(%u,%u,%u)\" rx=\"2\"/>",
		n->value, 100.0 * (double)n->value / (double)total, x, y, w, FG_FRAME - 1,
		205 + h % 50, 80 + (h >> 8) % 120, 40 + (h >> 16) % 40);
	if (w > 30) {
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + FG_FRAME - 5);
		xml_text(out, n->name, (size_t)((w - 6) / 6.5));
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
	(void)depth;
	for (const struct node *c = n->child; c; c = c->next) {
		draw(out, c, cx, level + 1, depth, total, height);
		cx += (FG_WIDTH - 2 * FG_PAD) * (double)c->value / (double)total;
	}
}

long flame_svg(FILE *in, FILE *out, const char *title, const char *subtitle)
{
	struct node root = { .name = "all" };
	char line[16384];
	double height;
	int depth;

	while (fgets(line, sizeof(line), in)) {
		char *sp = strrchr(line, ' '), *p = line;
		unsigned long count;
		struct node *n = &root;

		if (!sp)
			continue;
		count = strtoul(sp + 1, NULL, 10);
		*sp = '\0';
		root.value += count;
		while (*p) {
			char *semi = strchr(p, ';');
			size_t len = semi ? (size_t)(semi - p) : strlen(p);

			n = child_of(n, p, len);
			if (!n) {
				free_tree(root.child);
				return -ENOMEM;
			}
			n->value += count;
			p += len + (semi ? 1 : 0);
		}
	}
	if (!root.value) {
		free_tree(root.child);
		return -ENODATA;
	}
	depth = depth_of(&root);
	height = FG_TOP + FG_FRAME * depth + 2 * FG_PAD;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		     "<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" "
		     "xmlns=\"http://www.w3.org/2000/svg\" font-family=\"Verdana, sans-serif\" "
		     "font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f0\"/>\n"
		     "<text x=\"%.0f\" y=\"22\" text-anchor=\"middle\" font-size=\"16\">",
		FG_WIDTH, height, FG_WIDTH / 2);
	xml_text(out, title, 200);
	fprintf(out, "</text>\n<text x=\"%.0f\" y=\"40\" text-anchor=\"middle\" fill=\"#555\">",
		FG_WIDTH / 2);
	xml_text(out, subtitle, 300);
	fputs("</text>\n", out);
	draw(out, &root, FG_PAD, 0, depth, root.value, height);
	fputs("</svg>\n", out);
	free_tree(root.child);
	return (long)root.value;
}
