/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* page_html.c: a Markdown page as one self-contained index.html (page_html.h). */
#include "page_html.h"

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "page_facts.h"

#define PAGE_STYLE \
	"body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;line-height:1.45;" \
	"max-width:1100px;margin:1em auto;padding:0 1em;color:#1f2328}" \
	"table{border-collapse:collapse;margin:.8em 0;display:block;overflow-x:auto}" \
	"th,td{border:1px solid #d0d7de;padding:.25em .6em;text-align:left}" \
	"tr:nth-child(2n){background:#f6f8fa}code{font-family:ui-monospace,monospace;" \
	"font-size:90%;background:#eff1f3;padding:.1em .3em;border-radius:4px}" \
	"#headline{font-size:115%;font-weight:600}figure{margin:1em 0}" \
	"figure svg{width:100%;max-width:800px;height:auto;display:block}" \
	"figcaption{color:#59636e;font-size:90%}"

/* The whole of @path, NUL-terminated, into *@buf (its length in *@len). Returns 0 or
 * -errno. */
static int slurp(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "r"), *m;

	*buf = NULL;
	if (!f)
		return -errno;
	m = open_memstream(buf, len);
	if (!m) {
		fclose(f);
		return -ENOMEM;
	}
	for (int c; (c = getc(f)) != EOF;)
		putc(c, m);
	fclose(f);
	return fclose(m) ? -ENOMEM : 0;
}

/* @s with &, <, > and " escaped, on @out. */
static void escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

/* The SVG document @svg (from its <svg element on) on @out, each id="X" and reference to
 * "#X" (href, url()) made "@pfx-X". */
static void svg_prefixed(FILE *out, const char *svg, const char *pfx)
{
	static const char *const marks[] = { "id='", "id=\"", "href='#", "href=\"#", "url(#" };

	for (const char *p = strstr(svg, "<svg"); p && *p;) {
		size_t k = 0, n = sizeof(marks) / sizeof(marks[0]);

		while (k < n && strncmp(p, marks[k], strlen(marks[k])))
			k++;
		if (k == n) {
			fputc(*p++, out);
			continue;
		}
		fprintf(out, "%s%s-", marks[k], pfx);
		p += strlen(marks[k]);
	}
}

/* The text of @node's children (an image's description). */
static void node_text(FILE *out, cmark_node *node)
{
	for (cmark_node *c = cmark_node_first_child(node); c; c = cmark_node_next(c)) {
		if (cmark_node_get_literal(c))
			fputs(cmark_node_get_literal(c), out);
		node_text(out, c);
	}
}

/* The HTML of a figure for @img (an image of an SVG file in @dir), or NULL when it is
 * no such image. */
static char *figure(cmark_node *img, const char *dir)
{
	const char *url = cmark_node_get_url(img);
	char path[PATH_MAX], pfx[64], *svg, *html = NULL, *alt = NULL;
	size_t len, n;
	FILE *m;

	n = url ? strlen(url) : 0;
	if (n < 5 || strcmp(url + n - 4, ".svg") || strchr(url, ':') || url[0] == '/' ||
	    strstr(url, ".."))
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, url);
	if (slurp(path, &svg, &len) || !strstr(svg, "<svg")) {
		free(svg);
		return NULL;
	}
	snprintf(pfx, sizeof(pfx), "%.*s", (int)(n - 4), url);
	for (char *c = pfx; *c; c++)
		*c = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ? *c : '-';
	m = open_memstream(&alt, &len);
	if (m) {
		node_text(m, img);
		fclose(m);
	}
	m = open_memstream(&html, &len);
	if (m) {
		fprintf(m, "<figure id=\"%s\">\n", pfx);
		svg_prefixed(m, svg, pfx);
		fputs("\n<figcaption>", m);
		escaped(m, alt ? alt : "");
		fputs("</figcaption>\n</figure>\n", m);
		fclose(m);
	}
	free(svg);
	free(alt);
	return html;
}

/* @old replaced by a new node of @type holding @literal (NULL: nothing done). */
static void replace_by(cmark_node *old, cmark_node_type type, const char *literal)
{
	cmark_node *n = literal ? cmark_node_new(type) : NULL;

	if (!n)
		return;
	cmark_node_set_literal(n, literal);
	cmark_node_replace(old, n);
	cmark_node_free(old);
}

/* @node rendered as HTML with the attribute id="@id" on its element, in its place. */
static void with_id(cmark_node *node, const char *id, cmark_llist *exts)
{
	char *html = cmark_render_html(node, CMARK_OPT_UNSAFE, exts), *gt, *tagged;

	gt = html ? strchr(html, '>') : NULL;
	if (gt && asprintf(&tagged, "%.*s id=\"%s\"%s", (int)(gt - html), html, id, gt) > 0) {
		replace_by(node, CMARK_NODE_HTML_BLOCK, tagged);
		free(tagged);
	}
	free(html);
}

/* What the page changes in the document @doc: raw HTML shown as text; a paragraph that
 * holds an SVG image of @dir alone made a figure; the title and headline given ids. */
static int transform(cmark_node *doc, const char *dir, cmark_llist *exts)
{
	cmark_node **hit = NULL, *t;
	size_t n = 0, cap = 0;
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev = CMARK_EVENT_NONE;

	while (it && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *x = cmark_iter_get_node(it), *c = cmark_node_first_child(x), **more;
		cmark_node_type ty = cmark_node_get_type(x);

		if (ev != CMARK_EVENT_ENTER || !(ty == CMARK_NODE_HTML_INLINE ||
		    ty == CMARK_NODE_HTML_BLOCK || (ty == CMARK_NODE_PARAGRAPH && c &&
		    !cmark_node_next(c) && cmark_node_get_type(c) == CMARK_NODE_IMAGE)))
			continue;
		if (n == cap) {
			more = realloc(hit, (cap = 2 * cap + 64) * sizeof(*hit));
			if (!more)
				break;
			hit = more;
		}
		hit[n++] = x;
	}
	cmark_iter_free(it);
	if (!it || ev != CMARK_EVENT_DONE) {
		free(hit);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) /* raw HTML first: a figure's may hold some */
		if (cmark_node_get_type(hit[i]) != CMARK_NODE_PARAGRAPH)
			replace_by(hit[i], cmark_node_get_type(hit[i]) == CMARK_NODE_HTML_INLINE
				   ? CMARK_NODE_TEXT : CMARK_NODE_CODE_BLOCK,
				   cmark_node_get_literal(hit[i]));
	for (size_t i = 0; i < n; i++) {
		char *html;

		if (cmark_node_get_type(hit[i]) != CMARK_NODE_PARAGRAPH)
			continue;
		html = figure(cmark_node_first_child(hit[i]), dir);
		replace_by(hit[i], CMARK_NODE_HTML_BLOCK, html);
		free(html);
	}
	free(hit);
	for (t = cmark_node_first_child(doc); t && cmark_node_get_type(t) != CMARK_NODE_HEADING;)
		t = cmark_node_next(t);
	if (t && cmark_node_next(t) &&
	    cmark_node_get_type(cmark_node_next(t)) == CMARK_NODE_PARAGRAPH)
		with_id(cmark_node_next(t), "headline", exts);
	if (t)
		with_id(t, "title", exts);
	return 0;
}

/* The page around @body (the rendered Markdown) on @out, titled by the first heading's
 * text @title. */
static void page(FILE *out, const char *title, const char *body)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>", out);
	escaped(out, title);
	fputs("</title>\n<style>" PAGE_STYLE "</style>\n</head>\n<body>\n<main>\n", out);
	fputs(body, out);
	fputs("</main>\n</body>\n</html>\n", out);
}

/* @md and the facts' tables, parsed as GitHub Flavored Markdown (tables). */
static cmark_node *parse(cmark_parser *p, const char *md, size_t len,
			 const struct page_facts *facts)
{
	char *more = NULL;
	size_t mlen = 0;
	FILE *m = open_memstream(&more, &mlen);

	if (!m)
		return NULL;
	if (facts && facts->n)
		fprintf(m, "\n## Settings, machine and kernel\n");
	for (int i = 0; facts && i < facts->n; i++)
		page_facts_md(m, facts->heading[i], facts->obj[i]);
	if (fclose(m)) {
		free(more);
		return NULL;
	}
	cmark_parser_feed(p, md, len);
	cmark_parser_feed(p, "\n", 1);
	cmark_parser_feed(p, more, mlen);
	free(more);
	return cmark_parser_finish(p);
}

/* The first heading's plain text, or "xdptc" (to free). */
static char *title_of(cmark_node *doc)
{
	cmark_node *t = cmark_node_first_child(doc);
	char *s, *nl;

	while (t && cmark_node_get_type(t) != CMARK_NODE_HEADING)
		t = cmark_node_next(t);
	s = t ? cmark_render_plaintext(t, 0, 0) : NULL;
	if (s && (nl = strchr(s, '\n')))
		*nl = '\0';
	return s ? s : strdup("xdptc");
}

/* The page of @md into @path: 0 or -errno. */
static int render(const char *md, size_t len, const char *dir,
		  const struct page_facts *facts, const char *path)
{
	cmark_parser *p;
	cmark_node *doc = NULL;
	char *title = NULL, *body = NULL;
	int e = -ENOMEM;
	FILE *f;

	cmark_gfm_core_extensions_ensure_registered();
	p = cmark_parser_new(CMARK_OPT_DEFAULT);
	if (p && cmark_parser_attach_syntax_extension(p, cmark_find_syntax_extension("table")))
		doc = parse(p, md, len, facts);
	if (doc && !transform(doc, dir, cmark_parser_get_syntax_extensions(p))) {
		title = title_of(doc);
		body = cmark_render_html(doc, CMARK_OPT_UNSAFE, cmark_parser_get_syntax_extensions(p));
	}
	if (title && body) {
		f = fopen(path, "w");
		e = f ? 0 : -errno;
		if (f)
			page(f, title, body);
		if (f && (ferror(f) | fclose(f)))
			e = -EIO;
	}
	free(title);
	free(body);
	if (doc)
		cmark_node_free(doc);
	if (p)
		cmark_parser_free(p);
	return e;
}

int page_html_write(const char *dir, const char *md, const struct page_facts *facts,
		    char *err, size_t errlen)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8], *text;
	size_t len;
	int e;

	snprintf(path, sizeof(path), "%s/%s", dir, md);
	e = slurp(path, &text, &len);
	if (e) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(-e));
		return e;
	}
	snprintf(path, sizeof(path), "%s/index.html", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	e = render(text, len, dir, facts, tmp);
	free(text);
	if (!e && rename(tmp, path))
		e = -errno;
	if (e) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-e));
		unlink(tmp);
	}
	return e;
}
