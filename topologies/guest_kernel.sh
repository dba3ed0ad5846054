# guest_kernel.sh: Debian's kernels for the suite's qemu guests (sourced by virtio.sh
# after lib.sh; POSIX sh). Nothing is installed on the host and the host's apt sources
# are never touched: a private apt configuration lives in the cache ($CACHE/apt: its own
# sources.list, package lists and downloads), listing bookworm (with -updates, -security
# and -backports), trixie (likewise) and sid, signed by the keys of the host's
# debian-archive-keyring.
#
#   kernel_refresh_lists     fetch the private package lists when missing or older than a
#                            day (root; under a lock, so parallel runs fetch them once)
#   kernel_candidates        every generic amd64 kernel image in them, one per line:
#                            "UPSTREAM PACKAGE VERSION SUITE complete|lacks:PART",
#                            oldest first (lacks: a split package it needs is not in
#                            the archive at its version, so it cannot be fetched)
#   kernel_resolve SPEC      the newest complete candidate matching SPEC, "UPSTREAM
#                            PACKAGE VERSION SUITE"; SPEC is a
#                            version prefix (6.1, 6.18, 7.3, 6.12.95: whole components) or
#                            a full Debian package version (6.12.95-1~bpo12+1); exit 2
#                            with the available series named when nothing matches
#   kernel_defaults          one SPEC per series that can be fetched (6.1, 6.12, ...):
#                            the matrix's default list, oldest first
#   kernel_fetch SPEC        download and unpack what a guest needs into the cache; sets
#                            KDIR to its directory ($CACHE/PACKAGE), KPKG, KVERSION, KSUITE
#
# Only -amd64 images: the -cloud-amd64 flavour has no 9p (CONFIG_NET_9P unset), which the
# guest's root needs. From 6.19 on Debian splits the image (linux-image-V is a small
# package depending on linux-binary-V with the vmlinuz, linux-modules-V and linux-base-V):
# the binary and modules packages are fetched with it, linux-base (config, System.map)
# is not needed. What the cache keeps of a kernel: boot/vmlinuz-*, boot/config-* when
# there is one, and under lib/modules/RELEASE the modules.* indexes and the modules the
# guest loads ($CACHE_MODULES, else $MODULES, and their dependencies) and the NIC drivers
# ($KEEP_MODULES); the rest is removed after unpacking. .kept records that list: another
# list fetches again.

KAPT=$CACHE/apt
DEBIAN_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# apt's options for the private configuration.
kernel_apt_opts() {
	echo "-o Dir::Etc::SourceList=$KAPT/sources.list -o Dir::Etc::SourceParts=$KAPT/none" \
	     "-o Dir::State::Lists=$KAPT/lists -o Dir::Cache=$KAPT/cache" \
	     "-o Dir::State::status=$KAPT/status" \
	     "-o Dir::Etc::Preferences=$KAPT/none -o Dir::Etc::PreferencesParts=$KAPT/none" \
	     "-o Acquire::Languages=none -o APT::Architecture=amd64" \
	     "-o APT::Architectures=amd64 -o APT::Sandbox::User=root -o Debug::NoLocking=1"
}

kernel_write_sources() {
	mkdir -p "$KAPT/lists/partial" "$KAPT/cache/archives/partial" "$KAPT/none"
	[ -f "$KAPT/status" ] || : > "$KAPT/status"
	k="[signed-by=$DEBIAN_KEYRING]"
	m=http://deb.debian.org/debian
	s=http://deb.debian.org/debian-security
	cat > "$KAPT/sources.list.new" <<EOF
# xdptc's private apt sources: guest kernels only, never the host's
deb $k $m bookworm main
deb $k $m bookworm-updates main
deb $k $s bookworm-security main
deb $k $m bookworm-backports main
deb $k $m trixie main
deb $k $m trixie-updates main
deb $k $s trixie-security main
deb $k $m trixie-backports main
deb $k $m sid main
EOF
	mv "$KAPT/sources.list.new" "$KAPT/sources.list"
}

kernel_refresh_lists() {
	mkdir -p "$KAPT"
	# one refresh at a time, and only when the lists are missing or a day old
	exec 9> "$KAPT/.lock"
	flock 9
	fresh=$(find "$KAPT/lists" -maxdepth 1 -name '*_InRelease' -mmin -1440 2>/dev/null | head -n 1)
	if [ -z "$fresh" ]; then
		[ "$(id -u)" = 0 ] || { exec 9>&-; die "fetching Debian's kernel lists needs root (once a day)"; }
		kernel_write_sources
		echo "$(basename "$0"): fetching Debian's package lists for guest kernels into $KAPT" >&2
		# shellcheck disable=SC2046
		apt-get $(kernel_apt_opts) -q update >"$KAPT/update.log" 2>&1 ||
			{ exec 9>&-; die "cannot fetch Debian's package lists (see $KAPT/update.log)"; }
		find "$KAPT/lists" -maxdepth 1 -name '*_InRelease' -exec touch {} +
		rm -f "$KAPT/candidates" "$KAPT/candidates.v2"
	fi
	exec 9>&-
}

kernel_candidates() {
	# listed once per refresh of the lists (apt-cache takes seconds)
	if [ -s "$KAPT/candidates.v2" ]; then
		cat "$KAPT/candidates.v2"
		return 0
	fi
	scratch "$KAPT/candidates.$$"
	kernel_list_candidates > "$KAPT/candidates.$$" && mv "$KAPT/candidates.$$" "$KAPT/candidates.v2"
	cat "$KAPT/candidates.v2"
}

kernel_list_candidates() {
	# shellcheck disable=SC2046
	names=$(apt-cache $(kernel_apt_opts) pkgnames linux-image- |
		grep -E '^linux-image-[0-9][0-9a-z.+~-]*-amd64$' | grep -v -e '-cloud-' -e '-rt-')
	[ -n "$names" ] || return 0
	# shellcheck disable=SC2046,SC2086
	all=$(apt-cache $(kernel_apt_opts) madison $names |
		awk -F' *[|] *' '{ sub("^ +", "", $1); split($3, u, " "); suite = u[2]; sub("/.*", "", suite);
			v = $2; up = v; sub("-.*", "", up); print up, $1, v, suite }' |
		sort -V -k1,1 -k3,3 | awk '!seen[$2 " " $3]++')
	# the split packages each image depends on, and which of them the archive has at
	# that version (it has been seen to list an image whose modules package it lacks)
	# shellcheck disable=SC2046
	deps=$(apt-cache $(kernel_apt_opts) show $(echo "$all" | awk '{ print $2 "=" $3 }') 2>/dev/null |
		awk '/^Package:/ { p = $2 } /^Version:/ { v = $2 }
		     /^Depends:/ { n = split($0, d, ",")
			for (i = 1; i <= n; i++)
				if (match(d[i], /linux-(binary|modules)-[^ ]+/))
					print p "=" v, substr(d[i], RSTART, RLENGTH) }')
	parts=$(echo "$deps" | awk 'NF == 2 { print $2 }' | sort -u)
	have=
	# shellcheck disable=SC2046,SC2086
	[ -z "$parts" ] || have=$(apt-cache $(kernel_apt_opts) madison $parts 2>/dev/null |
		awk -F' *[|] *' '{ sub("^ +", "", $1); print $1 "=" $2 }')
	echo "$all" | awk -v deps="$deps" -v have="$have" '
		BEGIN { n = split(have, h, "\n"); for (i = 1; i <= n; i++) H[h[i]] = 1
			m = split(deps, d, "\n")
			for (i = 1; i <= m; i++) { split(d[i], f, " "); need[f[1]] = need[f[1]] " " f[2] } }
		{ miss = ""; k = split(need[$2 "=" $3], q, " ")
		  for (i = 1; i <= k; i++) if (!((q[i] "=" $3) in H)) miss = q[i]
		  print $0, (miss == "" ? "complete" : "lacks:" miss) }'
}

kernel_resolve() {
	spec=$1
	case "$spec" in
	''|*[!0-9a-z.+~-]*) echo "$(basename "$0"): bad guest kernel '$spec'" >&2; exit 2 ;;
	esac
	matches=$(kernel_candidates | awk -v s="$spec" '
		index(s, "-") ? $3 == s : ($1 == s || index($1, s ".") == 1)')
	line=$(echo "$matches" | awk '$5 == "complete"' | tail -n 1)
	if [ -z "$line" ] && [ -n "$matches" ]; then
		# shellcheck disable=SC2086
		set -- $(echo "$matches" | tail -n 1)
		echo "$(basename "$0"): Debian lists $2 $3 ($4) for '$spec' but not ${5#lacks:} at that version, which it needs: it cannot be fetched (series that can: $(kernel_defaults | tr '\n' ' '))" >&2
		exit 2
	fi
	if [ -z "$line" ]; then
		echo "$(basename "$0"): no Debian kernel matches '$spec' (available series: $(kernel_defaults | tr '\n' ' '))" >&2
		exit 2
	fi
	echo "$line" | cut -d' ' -f1-4
}

kernel_defaults() {
	kernel_candidates | awk '$5 == "complete" { split($1, p, "."); print p[1] "." p[2] }' |
		awk '!seen[$0]++'
}

# Remove from the unpacked tree $1 (release $2) what a guest does not use.
kernel_trim() {
	tree=$1
	rel=$2
	# the split packages keep these in linux-base, which is not fetched: empty ones
	# keep depmod quiet (a module built in is then simply not found, and not needed)
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		[ -f "$tree/lib/modules/$rel/$f" ] || : > "$tree/lib/modules/$rel/$f"
	done
	depmod -b "$tree" "$rel"
	keep=$(for m in ${CACHE_MODULES:-$MODULES} ${KEEP_MODULES:-}; do
		modprobe -d "$tree" -S "$rel" --show-depends "$m" 2>/dev/null | awk '$1 == "insmod" {print $2}'
	done | sort -u)
	echo "$keep" > "$tree/.keep"
	find "$tree/lib/modules/$rel" -name '*.ko*' -type f |
		awk 'NR == FNR { keep[$0]; next } !($0 in keep)' "$tree/.keep" - | xargs -r rm -f
	rm -f "$tree/.keep"
	rm -rf "$tree/usr" "$tree/etc" "$tree/boot/System.map-"* "$tree/lib/modules/$rel/build" \
	       "$tree/lib/modules/$rel/source"
	find "$tree/lib/modules/$rel" -type d -empty -delete
	depmod -b "$tree" "$rel"
}

kernel_fetch() {
	kernel_refresh_lists
	line=$(kernel_resolve "$1")
	# shellcheck disable=SC2086
	set -- $line
	KPKG=$2 KVERSION=$3 KSUITE=$4
	kdir_path=$CACHE/$KPKG
	# a kernel kept with another module list (an older xdptc's) is fetched again
	kept="${CACHE_MODULES:-$MODULES} ${KEEP_MODULES:-}"
	# one fetch at a time (an flock of the cache directory: no file of its own): cells side by side share the cache, and a second
	# fetch would replace the directory (and the initramfs) the first is booting from;
	# the others wait here and then find it fetched (flock: util-linux)
	if [ -w "$CACHE" ]; then
		exec 8<"$CACHE"
		flock 8
	fi
	if [ ! -f "$kdir_path/.complete" ] || [ "$(cat "$kdir_path/.kept" 2>/dev/null)" != "$kept" ]; then
		[ "$(id -u)" = 0 ] || die "fetching guest kernel $KPKG needs root (once)"
		echo "$(basename "$0"): fetching guest kernel $KPKG $KVERSION ($KSUITE) into $CACHE (once)" >&2
		dl=$(mktemp -d "$CACHE/.download.XXXXXX")
		scratch "$dl"
		# the split packaging: the image's binary and modules packages of the same version
		# shellcheck disable=SC2046
		parts=$(apt-cache $(kernel_apt_opts) show "$KPKG=$KVERSION" | awk '/^Depends:/ {
			gsub(",", "\n"); print; exit }' | grep -oE 'linux-(binary|modules)-[^ ]+' | sort -u)
		pkgs="$KPKG=$KVERSION"
		for p in $parts; do pkgs="$pkgs $p=$KVERSION"; done
		# shellcheck disable=SC2046,SC2086
		(cd "$dl" && apt-get $(kernel_apt_opts) download -q $pkgs >/dev/null 2>"$dl/err") ||
			die "cannot download $KPKG $KVERSION from Debian's archive: $(tail -n 1 "$dl/err")"
		echo "$(basename "$0"): unpacking $KPKG" >&2
		part=$(mktemp -d "$CACHE/.unpack.XXXXXX")
		scratch "$part"
		for deb in "$dl"/*.deb; do dpkg-deb -x "$deb" "$part"; done
		rm -rf "$dl"
		# newer packages are laid out for a merged /usr, with the vmlinuz beside the
		# modules: one layout in the cache (lib/modules/RELEASE, boot/vmlinuz-RELEASE)
		if [ -d "$part/usr/lib/modules" ] && [ ! -d "$part/lib/modules" ]; then
			mkdir -p "$part/lib"
			mv "$part/usr/lib/modules" "$part/lib/modules"
		fi
		rel=$(ls "$part/lib/modules" 2>/dev/null | head -n 1)
		if [ -n "$rel" ] && [ -f "$part/lib/modules/$rel/vmlinuz" ]; then
			mkdir -p "$part/boot"
			mv "$part/lib/modules/$rel/vmlinuz" "$part/boot/vmlinuz-$rel"
		fi
		ls "$part/boot/vmlinuz-"* >/dev/null 2>&1 && [ -n "$rel" ] ||
			die "$KPKG $KVERSION holds no vmlinuz or modules"
		kernel_trim "$part" "$rel"
		echo "$kept" > "$part/.kept"
		printf '%s %s %s\n' "$KPKG" "$KVERSION" "$KSUITE" > "$part/.complete"
		rm -rf "$kdir_path"
		mv "$part" "$kdir_path"
	fi
	exec 8>&-
	KDIR=$kdir_path
}
