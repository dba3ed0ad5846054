/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of the plugin's window files (loader/insn_window.c) and the address-to-
 * function table (probes/kallsyms.c), on files written here in the formats that
 * plugins/insn_count.c and /proc/kallsyms write. The plugin itself, on a real guest,
 * is tested by test_run_icount (its self-check of known work).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "insn_window.h"
#include "kallsyms.h"

static char ksyms_path[64], win_path[64];

static void write_file(char *path, const char *text)
{
	int fd;
	FILE *f;

	snprintf(path, 64, "/tmp/xdptc-insn-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
}

/* kallsyms lines as a 6.1 kernel prints them (addresses made up), a module's and a BPF
 * program's */
static const char *const KSYMS =
	"ffffffff81000000 T _stext\n"
	"ffffffff81a00000 T memset_erms\n"
	"ffffffff81a00040 T memset_orig\n"
	"ffffffff81b00000 t udp_sendmsg\n"
	"ffffffff81b00800 D some_data\n"
	"ffffffffc0100000 t veth_xdp_rcv_skb\t[veth]\n"
	"ffffffffc0200000 t bpf_prog_6deef7357e7b4530_xdp_drop_udp\t[bpf]\n";

/* a window: memset_erms's rep stosb of 64 bytes once (the block of 3 before it, then 64
 * further runs of the rep alone: 65 starts, 64 further iterations), 100 runs of a block
 * of 5 in udp_sendmsg, a block running on from memset_erms into memset_orig, the veth module, the BPF
 * program, user space, and code kallsyms does not name */
static const char *const WINDOW =
	"# xdptc insn_count 1\n"
	"window 7 insns 850 retired 786 string_iterations 64 halts 0\n"
	"B ffffffff81a00000 1 0 0,3,5\n"
	"B ffffffff81a0000a 65 64 0\n"
	"B ffffffff81b00010 100 0 0,2,4,7,9\n"
	"B ffffffff81a0003c 10 0 0,2,4\n"
	"B ffffffffc0100100 20 0 0,4\n"
	"B ffffffffc0200010 30 0 0,1\n"
	"B 401000 50 0 0,1,2\n"
	"B ffffffffff000000 1 0 0,1\n"
	"end 8\n";

static int setup(void **state)
{
	(void)state;
	write_file(ksyms_path, KSYMS);
	write_file(win_path, WINDOW);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(ksyms_path);
	unlink(win_path);
	return 0;
}

static const struct insn_func *func(const struct insn_funcs *fs, const char *name)
{
	for (size_t i = 0; i < fs->cap; i++)
		if (!strcmp(fs->f[i].name, name))
			return &fs->f[i];
	fail_msg("no function %s in the window", name);
	return NULL;
}

static void test_lookup(void **state)
{
	struct ksym_table t;
	const struct ksym *k;

	(void)state;
	assert_int_equal(ksym_table_load(ksyms_path, NULL, &t), 0);
	assert_int_equal(t.n, 6); /* the data symbol is no code */
	k = ksym_lookup(&t, 0xffffffff81a0000aull, 1 << 20);
	assert_string_equal(k->name, "memset_erms");
	assert_string_equal(k->module, "");
	k = ksym_lookup(&t, 0xffffffffc0100104ull, 1 << 20);
	assert_string_equal(k->name, "veth_xdp_rcv_skb");
	assert_string_equal(k->module, "veth");
	assert_null(ksym_lookup(&t, 0xffffffff80000000ull, 1 << 20)); /* below every symbol */
	assert_null(ksym_lookup(&t, 0xffffffff81b80000ull, 4096));    /* too far past one */
	ksym_table_free(&t);
}

/* with /proc/modules, a module's last symbol ends where the module does: code past it
 * (a BPF image, a trampoline) is not the module's */
static void test_module_end(void **state)
{
	struct ksym_table t;
	char mods[64];

	(void)state;
	write_file(mods, "veth 8192 0 - Live 0xffffffffc0100000\n"
			 "9p 4096 1 - Live 0xffffffffc0300000\n");
	assert_int_equal(ksym_table_load(ksyms_path, mods, &t), 0);
	assert_string_equal(ksym_lookup(&t, 0xffffffffc0101fffull, 1 << 20)->name,
			    "veth_xdp_rcv_skb");
	assert_null(ksym_lookup(&t, 0xffffffffc0102000ull, 1 << 20));
	ksym_table_free(&t);
	unlink(mods);
}

static void test_window_per_function(void **state)
{
	struct ksym_table t;
	struct insn_funcs fs = { 0 };
	struct insn_window w;
	const struct insn_func *f;
	char why[300];
	int64_t sum = 0, sum_r = 0;

	(void)state;
	assert_int_equal(ksym_table_load(ksyms_path, NULL, &t), 0);
	assert_int_equal(insn_window_read(win_path, 6, 0, &(struct insn_names){ NULL, &t }, &w, &fs, why, sizeof(why)), 0);
	assert_int_equal(w.seq, 7);
	assert_int_equal(w.insns, 850);
	assert_int_equal(w.retired, 786);
	assert_int_equal(w.iterations, 64);
	assert_int_equal(w.blocks, 8);
	/* 3 + 65 starts, of which 64 further iterations, and 2 x 10 of the block that
	 * runs on into memset_orig */
	f = func(&fs, "memset_erms");
	assert_int_equal(f->insns, 88);
	assert_int_equal(f->retired, 24);
	f = func(&fs, "udp_sendmsg");
	assert_int_equal(f->insns, 500);
	assert_int_equal(f->retired, 500);
	assert_int_equal(func(&fs, "memset_orig")->insns, 10);
	f = func(&fs, "veth_xdp_rcv_skb");
	assert_int_equal(f->insns, 40);
	assert_string_equal(f->where, "veth");
	f = func(&fs, "bpf_prog_6deef7357e7b4530_xdp_drop_udp");
	assert_int_equal(f->insns, 60);
	assert_string_equal(f->where, "bpf");
	assert_int_equal(func(&fs, "[user]")->insns, 150);
	assert_int_equal(func(&fs, "[kernel: unnamed]")->insns, 2);
	for (size_t i = 0; i < fs.cap; i++) {
		sum += fs.f[i].insns;
		sum_r += fs.f[i].retired;
	}
	assert_int_equal(sum, 850); /* the functions add up to the window */
	assert_int_equal(sum_r, 786);
	assert_int_equal(fs.windows, 1);
	insn_funcs_free(&fs);
	ksym_table_free(&t);
}

static void test_window_not_yet_written(void **state)
{
	struct insn_window w;
	char why[300];

	(void)state;
	/* window 7 is there; one after it is not (waited for 30 ms) */
	assert_int_equal(insn_window_read(win_path, 7, 30, NULL, &w, NULL, why, sizeof(why)),
			 -ENOENT);
	assert_non_null(strstr(why, "no window after number 7"));
}

static void test_window_that_does_not_add_up(void **state)
{
	char bad[64], why[300];
	struct insn_window w;

	(void)state;
	write_file(bad, "# xdptc insn_count 1\n"
			"window 1 insns 10 retired 10 string_iterations 0 halts 0\n"
			"B ffffffff81a00000 3 0 0,3\n"
			"end 1\n");
	assert_int_equal(insn_window_read(bad, 0, 0, NULL, &w, NULL, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "add up to 6"));
	unlink(bad);
	write_file(bad, "# xdptc insn_count 1\n"
			"window 1 insns 6 retired 6 string_iterations 0 halts 0\n"
			"B ffffffff81a00000 3 0 0,3\n");
	assert_int_equal(insn_window_read(bad, 0, 0, NULL, &w, NULL, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "before its end line"));
	unlink(bad);
	write_file(bad, "something else\n");
	assert_int_equal(insn_window_read(bad, 0, 0, NULL, &w, NULL, why, sizeof(why)), -EBADMSG);
	unlink(bad);
}

static void test_merge_and_sort(void **state)
{
	struct ksym_table t;
	struct insn_funcs a = { 0 }, all = { 0 };
	struct insn_window w;
	const struct insn_func **v;
	char why[300];

	(void)state;
	assert_int_equal(ksym_table_load(ksyms_path, NULL, &t), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(insn_window_read(win_path, 0, 0, &(struct insn_names){ NULL, &t }, &w, &a, why, sizeof(why)), 0);
	a.pkts = 10;
	insn_funcs_merge(&all, &a);
	assert_int_equal(all.windows, 2);
	assert_int_equal(func(&all, "udp_sendmsg")->insns, 1000);
	v = insn_funcs_sorted(&all);
	assert_string_equal(v[0]->name, "udp_sendmsg");
	assert_string_equal(v[1]->name, "[user]");
	free(v);
	insn_funcs_free(&a);
	insn_funcs_free(&all);
	ksym_table_free(&t);
}

static void test_background(void **state)
{
	struct insn_func idle = { .name = "default_idle", .where = "kernel" };
	struct insn_func tick = { .name = "update_process_times", .where = "kernel" };
	struct insn_func path = { .name = "udp_sendmsg", .where = "kernel" };
	struct insn_func mod = { .name = "rcu_like", .where = "veth" };

	(void)state;
	assert_true(insn_func_background(&idle));
	assert_true(insn_func_background(&tick));
	assert_false(insn_func_background(&path));
	assert_false(insn_func_background(&mod));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_module_end),
		cmocka_unit_test(test_window_per_function),
		cmocka_unit_test(test_window_not_yet_written),
		cmocka_unit_test(test_window_that_does_not_add_up),
		cmocka_unit_test(test_merge_and_sort),
		cmocka_unit_test(test_background),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
